import { parseArgs } from "node:util";
import { errorMessage, lazy, z } from "@mcp-rt/config/util";

/**
 * What the fixture server does. Every field maps to one command-line flag of
 * `fixture-server.js`; fields combine freely (a slow-starting server with many
 * tools and noisy stderr is `{ initDelayMs: 2000, tools: 50, noisyStderr: true }`).
 */
export interface FixtureOptions {
  /** `serverInfo.name` reported at `initialize` (`--name`). @default "mcp-rt-fixture" */
  name?: string | undefined;
  /** Prefix added to every tool name, `echo` included (`--tool-prefix`). @default "" */
  toolPrefix?: string | undefined;
  /** Wait this long before answering `initialize` (`--init-delay-ms`). @default 0 */
  initDelayMs?: number | undefined;
  /** Never answer `initialize`; the process stays alive (`--hang-at-init`). @default false */
  hangAtInit?: boolean | undefined;
  /** Exit with code 1 as soon as `notifications/initialized` arrives (`--crash-after-init`). @default false */
  crashAfterInit?: boolean | undefined;
  /** Add a `crash` tool that exits the process (code 1) before answering (`--crash-on-call`). @default false */
  crashOnCall?: boolean | undefined;
  /** Write one line to stderr and exit with this code at start, before any MCP traffic (`--exit-code`). */
  exitCode?: number | undefined;
  /**
   * With `exitCode`: wait this long first, reading nothing, as a server that fails while it
   * starts (a DNS lookup that fails offline, `getaddrinfo ENOTFOUND`) does (`--exit-delay-ms`). @default 0
   */
  exitDelayMs?: number | undefined;
  /** With `exitCode`: exit only while this file exists (a server that fails until its world is fixed, `--exit-while-file`). */
  exitWhileFile?: string | undefined;
  /** Write this line to stderr at start, even with `quiet` (a banner, an `npx` notice) (`--stderr-banner`). */
  stderrBanner?: string | undefined;
  /**
   * Legacy era, HTTP: the status a request without a session (other than `initialize`) gets:
   * 400 (the default, as the SDK's stateful servers answer), 404 or 405 (`--no-session-status`).
   */
  noSessionStatus?: number | undefined;
  /** Speak no MCP at all: write non-JSON lines to stdout, one at start and one per input line; over HTTP, answer every request with HTML (`--garbage-stdout`). @default false */
  garbageStdout?: boolean | undefined;
  /** Speak MCP, but also write non-JSON log lines to stdout between messages (`--stdout-noise`). @default false */
  stdoutNoise?: boolean | undefined;
  /** Add this many tools, `tool_0` … `tool_<n-1>` (`--tools`). @default 0 */
  tools?: number | undefined;
  /** Answer `tools/list` in pages of this many tools with `nextCursor` (`--page-size`). @default all tools in one page */
  pageSize?: number | undefined;
  /** Broken pagination: every `tools/list` page returns the same `nextCursor` (`--cursor-loop`). @default false */
  cursorLoop?: boolean | undefined;
  /** Add `add_tool {name}` and `remove_tool {name}`, which change the list and send `notifications/tools/list_changed` (`--list-changing`). @default false */
  listChanging?: boolean | undefined;
  /** Add `slow {ms, steps}`: sends progress notifications, honours cancellation (`--slow-tool`). @default false */
  slowTool?: boolean | undefined;
  /**
   * Add `huge {bytes, type}`: returns one block of exactly `bytes` ASCII characters (`type: "text"`,
   * the default), or an `image` (`image/png`) or `audio` (`audio/wav`) block of `bytes` bytes,
   * base64 (`--huge-tool`). Over stdio a result is one message, so it also tests message limits.
   * @default false
   */
  hugeTool?: boolean | undefined;
  /**
   * Add MCP Apps tools: `app_refresh` for the app's UI only (`_meta.ui.visibility: ["app"]`)
   * and `app_view` for both (`["model", "app"]`) (`--app-tools`). @default false
   */
  appTools?: boolean | undefined;
  /**
   * SEP-2243: add `routed {region, note}`, whose `region` is marked `x-mcp-header: "Region"`
   * (the SDK server then wants it as an `Mcp-Param-Region` header on a 2026-07-28 HTTP call, and
   * answers -32020 without it), and `bad_header`, listed with an invalid mark (on a number) that a
   * client must leave out (`--header-tools`). @default false
   */
  headerTools?: boolean | undefined;
  /** The `ttlMs` caching hint on every `tools/list` page (`--list-ttl-ms`). @default none (the SDK sends 0) */
  listTtlMs?: number | undefined;
  /** The `cacheScope` caching hint on every `tools/list` page (`--list-scope`). @default none (the SDK sends "private") */
  listScope?: "public" | "private" | undefined;
  /** Write a 128 KiB burst, then a line every 5 ms, to stderr while alive (`--noisy-stderr`). @default false */
  noisyStderr?: boolean | undefined;
  /** Ignore SIGTERM and stay alive after stdin (or the client's stderr pipe) closes; only SIGKILL stops it (`--ignore-sigterm`). @default false */
  ignoreSigterm?: boolean | undefined;
  /** Spawn a long-lived grandchild process in the same process group (`--spawn-grandchild`). @default false */
  spawnGrandchild?: boolean | undefined;
  /** Append `<pid> server` (and `<pid> grandchild`) lines to this file on each start (`--pid-file`). */
  pidFile?: string | undefined;
  /** HTTP modes only: reject requests without `Authorization: Bearer <token>` with 401 (`--bearer-token`). */
  bearerToken?: string | undefined;
  /** Hostile: every tool's description is exactly this many characters, its own text then filler (`--description-chars`). */
  descriptionChars?: number | undefined;
  /**
   * Hostile: add `deep`, whose `inputSchema` nests this many levels of `properties.next`
   * (`--schema-depth`). The program writes it by hand: `JSON.stringify` cannot, past a few thousand.
   */
  schemaDepth?: number | undefined;
  /** Hostile: add a tool whose name is this many characters long, `long_name_nnn…` (`--long-tool-name`). */
  longToolName?: number | undefined;
  /**
   * Hostile: {@link TERMINAL_ESCAPES} in the server's name and instructions, in the name,
   * description and result of a tool `escape…`, and in a stderr line at start (`--escapes`).
   * @default false
   */
  escapes?: boolean | undefined;
  /** Hostile: send `notifications/tools/list_changed` after answering every `tools/list`, forever (`--list-changed-storm`). @default false */
  listChangedStorm?: boolean | undefined;
  /**
   * Resources (`fixture://notes/<name>`, one binary `fixture://blob`), a
   * template `fixture://notes/{name}` and a prompt `greet {who}`, with tools
   * `add_resource {name}` and `add_prompt {name}` that send the list_changed
   * notifications, `structured {valid}` whose structuredContent matches
   * its outputSchema or not, and `ask` / `ask_url`, which elicit a form and
   * a URL from the user (`--content`). @default false
   */
  content?: boolean | undefined;
  /** Declares `resources` and `prompts` but answers their methods with -32601 (`--content-not-found`). @default false */
  contentNotFound?: boolean | undefined;
  /** A text resource `fixture://huge` of this many bytes (`--huge-resource`); implies the `resources` capability. */
  hugeResource?: number | undefined;
  /** Answers `resources/list`, `resources/templates/list` and `prompts/list` only after this many ms (`--slow-content-ms`). */
  slowContentMs?: number | undefined;
  /**
   * Which MCP era the server speaks (`--era`). `legacy`: the 2025 `initialize` handshake only,
   * served by `McpServer.connect` as before. `modern`: only 2026-07-28 (`server/discover` and a
   * `_meta` envelope on every request), served by the SDK's both-era entries with
   * `legacy: "reject"`: an `initialize` gets -32022 naming the supported versions. `dual`: both;
   * over stdio the era is pinned per process by the first exchange that succeeds (a `server/discover`
   * answered pins modern, and a later `initialize` gets -32022, stricter than `serveStdio`, which
   * would fall back to legacy; an `initialize` pins legacy), over HTTP per request (legacy requests
   * keep the stateful sessions). Every tool option works in every era, except that in the modern era
   * `ask`/`ask_url` ask through `input_required` (with a sealed `requestState`; `ask {rounds}` asks
   * the form that many times), `list_changed` notifications reach only a
   * `subscriptions/listen` stream, `crashAfterInit` never fires (there is no `initialized`), and over
   * HTTP every request gets a fresh server: the tools `add_tool` adds are kept by the process (so
   * they last, and their changes reach the listen streams), while `add_resource` and the like do not last. On stdio in `dual` and `modern`, `initDelayMs` and `hangAtInit` hold back
   * `server/discover` as well as `initialize`; over HTTP they, and `slowContentMs`, apply to
   * legacy sessions only.
   * @default "legacy"
   */
  era?: FixtureEra | undefined;
  /**
   * Legacy era, stdio: how a `server/discover` that arrives before `initialize` is answered
   * (`--probe-answer`). `method-not-found`: -32601, what SDK (TypeScript) servers send;
   * `invalid-params`: -32602 "Invalid request parameters", what Python SDK servers send; `never`:
   * no answer, the server keeps reading; `exit`: the process exits with code 1, as servers on the
   * Rust SDK (rmcp) do. A `server/discover` after `initialize` always gets -32601.
   * @default "method-not-found"
   */
  probeAnswer?: FixtureProbeAnswer | undefined;
  /**
   * Legacy era, HTTP: a POST carrying `server/discover` is answered with this HTTP status and a
   * plain-text body (e.g. 500); everything else is served as usual (`--probe-status`).
   */
  probeStatus?: number | undefined;
  /** Stdio: wait this long before reading stdin at all, a slow-starting process (`--stdin-delay-ms`). @default 0 */
  stdinDelayMs?: number | undefined;
  /**
   * Spend this many ms of CPU time at start, before reading any input: a
   * server that loads much code (`--start-cpu-ms`). CPU time, not time on the
   * clock: beside other busy processes it takes longer, as a real start does.
   * @default 0
   */
  startCpuMs?: number | undefined;
  /**
   * A JSON file `{ "tools": [...], "instructions": "..." }` read when the
   * server starts: each tool is listed exactly as written (name, title,
   * description, input and output schema, annotations) and answers a call
   * with its arguments; the instructions are sent at `initialize`. With it
   * comes `reload_definitions`, which reads the file again and sends
   * `notifications/tools/list_changed`. A server whose tools change between
   * two starts, or while it runs (`--definitions`).
   */
  definitions?: string | undefined;
  /** Write no diagnostics to stderr; with `hangAtInit`, the process writes nothing at all (`--quiet`). @default false */
  quiet?: boolean | undefined;
}

/** The MCP eras a fixture can speak: see {@link FixtureOptions.era}. */
export type FixtureEra = "legacy" | "dual" | "modern";

/** How a legacy fixture answers a `server/discover` probe: see {@link FixtureOptions.probeAnswer}. */
export type FixtureProbeAnswer = "method-not-found" | "invalid-params" | "never" | "exit";

/**
 * What the `escapes` fixture writes wherever a client might show server text:
 * an OSC 52 clipboard write, a screen clear, a window title, an 8-bit CSI,
 * a bell, a carriage return and a backspace. A terminal that receives it
 * unfiltered does what it says.
 */
export const TERMINAL_ESCAPES: string =
  "\u001b]52;c;aGFja2Vk\u0007\u001b[2J\u001b[H\u001b]0;owned\u0007\u009b31m\u0007\r\b";

/** The parsed command line of the fixture server: {@link FixtureOptions} plus the transport. */
export interface FixtureCommandLine extends FixtureOptions {
  /** Which transport the program serves. */
  transport: "stdio" | "http" | "sse";
  /** HTTP port; 0 picks a free one. */
  port: number;
}

// Built on first use: the fixtures' paths are on the example agent's start path, this schema is not.
const commandLineSchema = lazy(() => {
  /** A whole number ≥ `min` (≤ `max`), from the flag's text. */
  const whole = (min: number, max = Number.MAX_SAFE_INTEGER) =>
    z.optional(z.pipe(z.coerce.number(), z.int().check(z.minimum(min), z.maximum(max))));
  const flag = z.optional(z.boolean());
  const text = z.optional(z.string());
  const nonEmpty = z.optional(z.string().check(z.minLength(1)));
  return z
    .object({
      name: nonEmpty,
      "tool-prefix": text,
      "init-delay-ms": whole(0),
      "hang-at-init": flag,
      "crash-after-init": flag,
      "crash-on-call": flag,
      "exit-code": whole(0, 255),
      "exit-delay-ms": whole(0),
      "exit-while-file": nonEmpty,
      "stderr-banner": nonEmpty,
      "no-session-status": whole(400, 499),
      "garbage-stdout": flag,
      "stdout-noise": flag,
      tools: whole(0, 100_000),
      "page-size": whole(1),
      "cursor-loop": flag,
      "list-changing": flag,
      "slow-tool": flag,
      "huge-tool": flag,
      "app-tools": flag,
      "header-tools": flag,
      "list-ttl-ms": whole(0),
      "list-scope": z.optional(z.enum(["public", "private"])),
      "noisy-stderr": flag,
      "ignore-sigterm": flag,
      "spawn-grandchild": flag,
      "pid-file": nonEmpty,
      "bearer-token": nonEmpty,
      "description-chars": whole(0, 10_000_000),
      "schema-depth": whole(0, 1_000_000),
      "long-tool-name": whole(0, 10_000_000),
      escapes: flag,
      "list-changed-storm": flag,
      content: flag,
      "content-not-found": flag,
      "huge-resource": whole(0, 256 * 1024 * 1024),
      "slow-content-ms": whole(0),
      era: z.optional(z.enum(["legacy", "dual", "modern"])),
      "probe-answer": z.optional(z.enum(["method-not-found", "invalid-params", "never", "exit"])),
      "probe-status": whole(100, 599),
      "stdin-delay-ms": whole(0),
      "start-cpu-ms": whole(0),
      definitions: nonEmpty,
      quiet: flag,
      http: flag,
      sse: flag,
      port: whole(0, 65535),
    })
    .check(z.refine((v) => !(v.http && v.sse), { message: "--http and --sse are exclusive", path: ["sse"] }));
});

const stringFlags = [
  "name",
  "tool-prefix",
  "init-delay-ms",
  "exit-code",
  "exit-delay-ms",
  "exit-while-file",
  "stderr-banner",
  "no-session-status",
  "tools",
  "page-size",
  "pid-file",
  "bearer-token",
  "description-chars",
  "schema-depth",
  "long-tool-name",
  "huge-resource",
  "slow-content-ms",
  "era",
  "probe-answer",
  "probe-status",
  "stdin-delay-ms",
  "list-ttl-ms",
  "list-scope",
  "start-cpu-ms",
  "definitions",
  "port",
] as const;
const booleanFlags = [
  "hang-at-init",
  "crash-after-init",
  "crash-on-call",
  "garbage-stdout",
  "stdout-noise",
  "cursor-loop",
  "list-changing",
  "slow-tool",
  "huge-tool",
  "app-tools",
  "header-tools",
  "noisy-stderr",
  "ignore-sigterm",
  "spawn-grandchild",
  "escapes",
  "list-changed-storm",
  "content",
  "content-not-found",
  "quiet",
  "http",
  "sse",
] as const;

/**
 * Turns {@link FixtureOptions} into the fixture server's command-line flags.
 *
 * @example
 * fixtureArgs({ tools: 10, pageSize: 3 }); // ["--tools=10", "--page-size=3"]
 */
export function fixtureArgs(options: FixtureOptions = {}): string[] {
  const args: string[] = [];
  const value = (flag: string, v: string | number | undefined): void => {
    // `--flag=value`, so that a value starting with "-" is not read as a flag.
    if (v !== undefined) args.push(`--${flag}=${v}`);
  };
  const flag = (name: string, on: boolean | undefined): void => {
    if (on) args.push(`--${name}`);
  };
  value("name", options.name);
  value("tool-prefix", options.toolPrefix);
  value("init-delay-ms", options.initDelayMs);
  flag("hang-at-init", options.hangAtInit);
  flag("crash-after-init", options.crashAfterInit);
  flag("crash-on-call", options.crashOnCall);
  value("exit-code", options.exitCode);
  value("exit-delay-ms", options.exitDelayMs);
  value("exit-while-file", options.exitWhileFile);
  value("stderr-banner", options.stderrBanner);
  value("no-session-status", options.noSessionStatus);
  flag("garbage-stdout", options.garbageStdout);
  flag("stdout-noise", options.stdoutNoise);
  value("tools", options.tools);
  value("page-size", options.pageSize);
  flag("cursor-loop", options.cursorLoop);
  flag("list-changing", options.listChanging);
  flag("slow-tool", options.slowTool);
  flag("huge-tool", options.hugeTool);
  flag("app-tools", options.appTools);
  flag("header-tools", options.headerTools);
  value("list-ttl-ms", options.listTtlMs);
  value("list-scope", options.listScope);
  flag("noisy-stderr", options.noisyStderr);
  flag("ignore-sigterm", options.ignoreSigterm);
  flag("spawn-grandchild", options.spawnGrandchild);
  value("pid-file", options.pidFile);
  value("bearer-token", options.bearerToken);
  value("description-chars", options.descriptionChars);
  value("schema-depth", options.schemaDepth);
  value("long-tool-name", options.longToolName);
  flag("escapes", options.escapes);
  flag("list-changed-storm", options.listChangedStorm);
  flag("content", options.content);
  flag("content-not-found", options.contentNotFound);
  value("huge-resource", options.hugeResource);
  value("slow-content-ms", options.slowContentMs);
  value("era", options.era);
  value("probe-answer", options.probeAnswer);
  value("probe-status", options.probeStatus);
  value("stdin-delay-ms", options.stdinDelayMs);
  value("start-cpu-ms", options.startCpuMs);
  value("definitions", options.definitions);
  flag("quiet", options.quiet);
  return args;
}

/** Result of {@link parseFixtureCommandLine}: the options, or a message naming the bad flag. */
export type ParseFixtureCommandLineResult =
  | { ok: true; value: FixtureCommandLine }
  | { ok: false; error: string };

/** Parses the fixture server's argv (without `node` and the script path). Never throws. */
export function parseFixtureCommandLine(argv: string[]): ParseFixtureCommandLineResult {
  let raw: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries([
      ...stringFlags.map((f) => [f, { type: "string" as const }]),
      ...booleanFlags.map((f) => [f, { type: "boolean" as const }]),
    ]);
    raw = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Record<
      string,
      string | boolean | undefined
    >;
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
  const parsed = commandLineSchema().safeParse(raw);
  if (!parsed.success) {
    const error = parsed.error.issues
      .map((issue) => `--${issue.path.map(String).join(".")}: ${issue.message}`)
      .join("; ");
    return { ok: false, error };
  }
  const v = parsed.data;
  return {
    ok: true,
    value: {
      transport: v.http ? "http" : v.sse ? "sse" : "stdio",
      port: v.port ?? 0,
      name: v.name,
      toolPrefix: v["tool-prefix"],
      initDelayMs: v["init-delay-ms"],
      hangAtInit: v["hang-at-init"],
      crashAfterInit: v["crash-after-init"],
      crashOnCall: v["crash-on-call"],
      exitCode: v["exit-code"],
      exitDelayMs: v["exit-delay-ms"],
      exitWhileFile: v["exit-while-file"],
      stderrBanner: v["stderr-banner"],
      noSessionStatus: v["no-session-status"],
      garbageStdout: v["garbage-stdout"],
      stdoutNoise: v["stdout-noise"],
      tools: v.tools,
      pageSize: v["page-size"],
      cursorLoop: v["cursor-loop"],
      listChanging: v["list-changing"],
      slowTool: v["slow-tool"],
      hugeTool: v["huge-tool"],
      appTools: v["app-tools"],
      headerTools: v["header-tools"],
      listTtlMs: v["list-ttl-ms"],
      listScope: v["list-scope"],
      noisyStderr: v["noisy-stderr"],
      ignoreSigterm: v["ignore-sigterm"],
      spawnGrandchild: v["spawn-grandchild"],
      pidFile: v["pid-file"],
      bearerToken: v["bearer-token"],
      descriptionChars: v["description-chars"],
      schemaDepth: v["schema-depth"],
      longToolName: v["long-tool-name"],
      escapes: v.escapes,
      listChangedStorm: v["list-changed-storm"],
      content: v.content,
      contentNotFound: v["content-not-found"],
      hugeResource: v["huge-resource"],
      slowContentMs: v["slow-content-ms"],
      era: v.era,
      probeAnswer: v["probe-answer"],
      probeStatus: v["probe-status"],
      stdinDelayMs: v["stdin-delay-ms"],
      startCpuMs: v["start-cpu-ms"],
      definitions: v.definitions,
      quiet: v.quiet,
    },
  };
}
