import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { DiscoveredServer, LoadConfigsOptions, LoadConfigsResult, ProjectTrust } from "../types.js";
import { errorMessage } from "../util/error-message.js";
import { entriesOf, explainJson, formatExplain, knownNames } from "./explain-command.js";
import { type KeyCommandIo, KeyUsageError, keyCommand } from "./key-command.js";
import { formatList, listJson } from "./list-command.js";
import { buildInventory } from "./server-inventory.js";
import type { ReasonContext } from "./status-reason.js";
import { trustCommand, untrustCommand } from "./trust-command.js";

/** Everything the CLI touches outside itself, injected so tests can drive it in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The process's folder: the default of `--cwd`. */
  cwd: string;
  homeDir: string;
  load(cwd: string, options: LoadConfigsOptions): Promise<LoadConfigsResult>;
  /** Every entry as the sources read it, so servers that do not start still show their transport. */
  discover?(cwd: string, options: LoadConfigsOptions): Promise<DiscoveredServer[]>;
  trust: ProjectTrust;
  /** The environment `${…}` placeholders expand from, whose values are hidden in the output. @default process.env */
  env?: Record<string, string | undefined>;
  /** Reads an API key without echo, for `key set`. */
  readSecret?(prompt: string): Promise<string>;
  /** Opens the `--auth` storage of `key set|delete`. @default the file and memory stores */
  openAuthStorage?: KeyCommandIo["openAuthStorage"];
}

/** The `--help` text. */
export const USAGE: string = `mcp-rt-config: the MCP servers an agent session would start here, and why.

Usage:
  mcp-rt-config list [--json] [--cwd DIR]
  mcp-rt-config explain <name> [--json] [--show-secrets] [--cwd DIR]
  mcp-rt-config trust [--cwd DIR]      approve this project's project-level servers
  mcp-rt-config untrust [--cwd DIR]    withdraw that approval
  mcp-rt-config key set <credentialId> [--auth URL]     store an API key (typed
                                       without echo, or piped on stdin)
  mcp-rt-config key delete <credentialId> [--auth URL]  remove it

Options:
  --cwd DIR             the project folder (default: the current folder)
  --json                stable machine-readable output (list, explain)
  --show-secrets        show header and env values and URL credentials (explain)
  --no-project-config   ignore project-level files, as enableProjectConfig: false does
  --auth URL            where keys live: file: (~/.mcp-rt/auth.json), file:/path, memory:
  -h, --help            this help

Exit codes: 0 done; 1 unknown server name (explain) or a failure; 2 wrong usage.
`;

const OPTIONS = {
  cwd: { type: "string" },
  json: { type: "boolean" },
  "show-secrets": { type: "boolean" },
  "no-project-config": { type: "boolean" },
  auth: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type OptionName = keyof typeof OPTIONS;

const COMMANDS: Record<string, { positionals: number; options: readonly OptionName[] }> = {
  list: { positionals: 0, options: ["cwd", "json", "no-project-config"] },
  explain: { positionals: 1, options: ["cwd", "json", "show-secrets", "no-project-config"] },
  trust: { positionals: 0, options: ["cwd"] },
  untrust: { positionals: 0, options: ["cwd"] },
  key: { positionals: 2, options: ["auth"] },
};

class UsageError extends Error {}

/** Runs one `mcp-rt-config` invocation and returns its exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`mcp-rt-config: ${error.message}\nRun \`mcp-rt-config --help\` for usage.\n`);
      return 2;
    }
    io.stderr(`mcp-rt-config: ${errorMessage(error)}\n`);
    return 1;
  }
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  if (command === undefined) {
    io.stderr(USAGE);
    return 2;
  }
  const spec = COMMANDS[command];
  if (!spec)
    throw new UsageError(`unknown command "${command}" (commands: ${Object.keys(COMMANDS).join(", ")})`);
  for (const name of Object.keys(values) as OptionName[]) {
    if (!spec.options.includes(name)) throw new UsageError(`${command} does not take --${name}`);
  }
  if (command === "key") return runKeyCommand(rest, values.auth, io);
  if (rest.length !== spec.positionals) {
    throw new UsageError(
      spec.positionals === 0
        ? `${command} takes no arguments (got ${rest.join(" ")})`
        : `${command} needs exactly one server name`,
    );
  }
  if (values.cwd === "") throw new UsageError("--cwd needs a folder");

  const cwd = resolve(io.cwd, values.cwd ?? ".");
  // No `reserve` rule: a default agent session holds no server back.
  const loadOptions: LoadConfigsOptions = {
    enableProjectConfig: values["no-project-config"] !== true,
    ...(io.env === undefined ? {} : { env: io.env }),
  };
  const context: ReasonContext = {
    cwd,
    homeDir: io.homeDir,
    env: io.env ?? process.env,
    trustCommand: `mcp-rt-config trust${cwd === resolve(io.cwd) ? "" : ` --cwd ${cwd}`}`,
  };

  switch (command) {
    case "trust": {
      const outcome = await trustCommand(cwd, loadOptions, io);
      io.stdout(outcome.text);
      return outcome.exitCode;
    }
    case "untrust": {
      const outcome = await untrustCommand(cwd, io);
      io.stdout(outcome.text);
      return outcome.exitCode;
    }
  }

  const [result, discovered] = await Promise.all([
    io.load(cwd, { ...loadOptions, trust: io.trust }),
    io.discover ? io.discover(cwd, loadOptions).catch(() => []) : Promise.resolve([]),
  ]);
  const inventory = buildInventory(result, { discovered });
  if (command === "list") {
    io.stdout(
      values.json
        ? `${JSON.stringify(listJson(inventory, context), null, 2)}\n`
        : formatList(inventory, context),
    );
    return 0;
  }

  const name = rest[0]!;
  const entries = entriesOf(inventory, name);
  if (!entries) {
    const names = knownNames(inventory);
    io.stderr(
      `mcp-rt-config: no server named "${name}" for ${cwd}.\n` +
        (names.length > 0 ? `Known servers: ${names.join(", ")}\n` : "No MCP servers are configured here.\n"),
    );
    return 1;
  }
  const explainContext = { ...context, showSecrets: values["show-secrets"] === true };
  io.stdout(
    values.json
      ? `${JSON.stringify(explainJson({ name, entries }, explainContext), null, 2)}\n`
      : formatExplain({ name, entries }, explainContext),
  );
  return 0;
}

async function runKeyCommand(args: string[], authUrl: string | undefined, io: CliIo): Promise<number> {
  const readSecret = io.readSecret;
  if (!readSecret) throw new Error("key set cannot read a key here (no input)");
  let outcome: Awaited<ReturnType<typeof keyCommand>>;
  try {
    outcome = await keyCommand(args, authUrl, {
      readSecret,
      cwd: io.cwd,
      homeDir: io.homeDir,
      ...(io.openAuthStorage ? { openAuthStorage: io.openAuthStorage } : {}),
    });
  } catch (error) {
    if (error instanceof KeyUsageError) throw new UsageError(error.message);
    throw error;
  }
  (outcome.exitCode === 0 ? io.stdout : io.stderr)(outcome.text);
  return outcome.exitCode;
}

function parse(argv: readonly string[]) {
  return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
}
