// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are part of what these tests start
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { createCacheFromUrl, MCPToolCache } from "@mcp-rt/cache";
import { createMemoryAuthStorage, type MCPServerConfig, type MCPStdioServerConfig } from "@mcp-rt/config";
import {
  createBrowserStandIn,
  dualEraServer,
  type FixtureOptions,
  type HttpFixture,
  modernServer,
  type OAuthFixture,
  type RedisServer,
  readPidFileEntries,
  redisUnavailable,
  startHttpFixture,
  startOAuthFixture,
  startRedisServer,
} from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MCPManager, MCPManagerOptions } from "../src/index.js";
import { useManagers } from "./helpers.js";

// Servers on the SDK v2 mark their lists and `server/discover` result `cacheScope: "private"`:
// what every warm start below rests on is that they are kept under who asked, known before the
// spawn, and handed to no one else. Each start is counted at the fixture: processes and probes.

const cwd = process.cwd();
const managers = useManagers();
const execFileAsync = promisify(execFile);
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-rt-warm-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What one start handed over when `connectServers` returned, and the fixture's counts after it. */
interface Start {
  deferred: boolean;
  toolCount: number;
  tools: string[];
  status: string;
}

/** One start of `configs` in a new manager on `cache` (cache-first, as the example agent runs), until `name` is up. */
async function startOnce(
  name: string,
  configs: Record<string, MCPServerConfig> | (() => Promise<MCPManager>),
  options: MCPManagerOptions,
): Promise<Start> {
  let m: MCPManager;
  if (typeof configs === "function") m = await configs();
  else {
    m = managers({ startupMode: "cache-first", ...options });
    const { errors } = await m.connectServers(configs);
    expect(errors.get(name)).toBeUndefined();
  }
  const state = m.getServerStates().find((entry) => entry.name === name);
  const start: Start = {
    deferred: state?.deferred ?? false,
    toolCount: state?.toolCount ?? 0,
    tools: m
      .getTools()
      .filter((tool) => tool.serverName === name)
      .map((tool) => tool.name),
    status: state?.status ?? "unknown",
  };
  await m.waitForConnection(name);
  await m.disconnectAll();
  return start;
}

/** A fixture config whose processes and probes are counted at the fixture. */
function counted(make: (options: FixtureOptions) => MCPStdioServerConfig, options: FixtureOptions = {}) {
  const pidFile = join(dir, `pids-${Math.random().toString(36).slice(2)}`);
  return {
    pidFile,
    config: make({ tools: 3, ...options, pidFile }),
    counts: () => {
      const entries = readPidFileEntries(pidFile);
      const count = (role: string) => entries.filter((entry) => entry.role === role).length;
      return { processes: count("server"), probes: count("probe") };
    },
  };
}

/** Sets environment variables for the length of `run` (the manager's servers inherit from process.env). */
async function withEnv<T>(values: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  try {
    return await run();
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

const WARM = { deferred: true, toolCount: 4, status: "connecting" };
const WAITED_FOR = { deferred: false, toolCount: 4, status: "connected" };

describe.each([
  ["a 2026-07-28 server", modernServer],
  ["a dual-era server", dualEraServer],
] as const)("%s with credentials starts warm from its private lists", (_label, make) => {
  const cases: Array<[string, Partial<MCPStdioServerConfig>]> = [
    ["no env", {}],
    ["a plain env value", { env: { LOG_LEVEL: "debug" } }],
    [
      "a secret-named env value",
      { env: { EXAMPLE_API_KEY: "sk-test-0123456789abcdef", LOG_LEVEL: "debug" } },
    ],
    ["a !command value", { env: { EXAMPLE_API_KEY: "!printf sk-from-a-command" } }],
    ["envPassthrough", { envPassthrough: ["GITHUB_TOKEN"] }],
  ];
  it.each(cases)(
    "%s: probed once cold; warm, its tools handed over before the spawn and no probe",
    async (_case, extra) => {
      const cache = new MCPToolCache(new Map());
      const server = counted(make);
      const config = { ...server.config, ...extra };
      await withEnv({ GITHUB_TOKEN: "ghp_tokenOfAnn0123456789abcdefABCDEF" }, async () => {
        expect(await startOnce("s", { s: config }, { cache })).toMatchObject(WAITED_FOR);
        expect(server.counts()).toEqual({ processes: 1, probes: 1 });
        const warm = await startOnce("s", { s: config }, { cache });
        expect(warm).toMatchObject(WARM);
        expect(server.counts()).toEqual({ processes: 2, probes: 1 });
      });
    },
  );

  const others: Array<[string, Partial<MCPStdioServerConfig>, string, [string, string]]> = [
    [
      "envPassthrough: [GITHUB_TOKEN]",
      { envPassthrough: ["GITHUB_TOKEN"] },
      "GITHUB_TOKEN",
      ["ghp_ann", "ghp_bob"],
    ],
    [
      "an inherited OPENAPI_MCP_HEADERS",
      {},
      "OPENAPI_MCP_HEADERS",
      ['{"Authorization":"Bearer ann-0123456789"}', '{"Authorization":"Bearer bob-0123456789"}'],
    ],
  ];
  it.each(others)(
    "%s with another value is another caller: no tools of the first, one discover on its one process",
    async (_case, extra, variable, [ann, bob]) => {
      const cache = new MCPToolCache(new Map());
      const server = counted(make);
      const config = { ...server.config, ...extra };
      const start = (value: string) =>
        withEnv({ [variable]: value }, () => startOnce("s", { s: config }, { cache }));
      expect(await start(ann)).toMatchObject(WAITED_FOR);
      expect(await start(ann)).toMatchObject(WARM);
      expect(server.counts()).toEqual({ processes: 2, probes: 1 });
      // Bob's start finds the server's era but not Ann's lists: it waits for the server, which
      // gets one server/discover on the process that serves it.
      expect(await start(bob)).toMatchObject(WAITED_FOR);
      expect(server.counts()).toEqual({ processes: 3, probes: 2 });
      expect(await start(bob)).toMatchObject(WARM);
      expect(await start(ann)).toMatchObject(WARM);
      expect(server.counts()).toEqual({ processes: 5, probes: 2 });
    },
  );
});

describe("a !command that fails", () => {
  it("fails its server alone, with a cache on, and reads nothing private for it", async () => {
    const cache = new MCPToolCache(new Map());
    const m = managers({ startupMode: "cache-first", cache });
    const ok = counted(modernServer);
    const { errors } = await m.connectServers({
      broken: { ...modernServer(), env: { EXAMPLE_API_KEY: "!exit 3" } },
      ok: ok.config,
    });
    expect(errors.get("broken")?.code).toBe("SHELL_FAILED");
    await m.waitForConnection("ok");
    expect(m.getServerStates().find((state) => state.name === "broken")?.status).toBe("failed");
  });
});

describe("values the loader expands (`${VAR}`)", () => {
  let http: HttpFixture | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
  });

  /** Starts the servers of a native config file in a fresh home, with `env` as the environment. */
  const fromFile = (servers: Record<string, unknown>, env: Record<string, string>, cache: MCPToolCache) => {
    const home = join(dir, "home");
    mkdirSync(join(home, ".mcp-rt"), { recursive: true });
    writeFileSync(join(home, ".mcp-rt", "mcp.json"), JSON.stringify({ mcpServers: servers }));
    return async () => {
      const m = managers({ startupMode: "cache-first", cache });
      const { errors } = await m.discoverAndConnect({ homeDir: home, env: { ...process.env, ...env } });
      expect([...errors.values()]).toEqual([]);
      return m;
    };
  };

  it("in args: the same value is warm, another is a miss", async () => {
    const cache = new MCPToolCache(new Map());
    const server = counted(modernServer);
    const { command, args } = server.config as { command: string; args: string[] };
    const entry = { command, args: [...args, "--name", "${FIXTURE_TAG}"] };
    const start = (tag: string) => startOnce("s", fromFile({ s: entry }, { FIXTURE_TAG: tag }, cache), {});
    expect(await start("ann")).toMatchObject(WAITED_FOR);
    expect(await start("ann")).toMatchObject(WARM);
    expect(server.counts()).toEqual({ processes: 2, probes: 1 });
    expect(await start("bob")).toMatchObject(WAITED_FOR);
    expect(server.counts()).toEqual({ processes: 3, probes: 2 });
  });

  it("in a URL query and an Authorization header of a 2026-07-28 HTTP server", async () => {
    const pidFile = join(dir, "http-pids");
    http = await startHttpFixture({ era: "modern", tools: 3, bearerToken: "token-of-ann", pidFile });
    const cache = new MCPToolCache(new Map());
    const entry = {
      type: "http",
      url: `${http.url}?key=\${QUERY_KEY}`,
      headers: { Authorization: "Bearer ${MCP_TOKEN}" },
    };
    const probes = () => readPidFileEntries(pidFile).filter((line) => line.role === "probe").length;
    const start = (key: string) =>
      startOnce("r", fromFile({ r: entry }, { QUERY_KEY: key, MCP_TOKEN: "token-of-ann" }, cache), {});
    expect(await start("k1")).toMatchObject(WAITED_FOR);
    expect(probes()).toBe(1);
    expect(await start("k1")).toMatchObject(WARM);
    expect(probes()).toBe(1);
    expect(await start("k2")).toMatchObject(WAITED_FOR);
    expect(probes()).toBe(2);
  });
});

describe("an OAuth sign-in: two principals sharing one Redis store", () => {
  const unavailable = redisUnavailable();
  let redis: RedisServer | undefined;
  let fixture: OAuthFixture | undefined;
  // Stopped before the check that no child process outlived the test.
  afterEach(async () => {
    await fixture?.close();
    await redis?.stop();
  });

  it.skipIf(unavailable !== undefined && process.env.CI !== "true")(
    "neither sees the other's private list; each gets its own warm start",
    async () => {
      if (unavailable) throw new Error(unavailable);
      redis = await startRedisServer();
      fixture = await startOAuthFixture({ era: "modern" });
      const key = "a-fleet-key-0123456789abcdef";
      const config = { linear: fixture.config() };
      const signIn = async (account: string) => {
        const authStorage = createMemoryAuthStorage();
        const browser = createBrowserStandIn();
        fixture!.account = account;
        const cache = await createCacheFromUrl(redis!.url, { key });
        const m = managers({ startupMode: "cache-first", cache, authStorage, openUrl: browser.openUrl });
        await m.connectServers(config);
        await m.login("linear");
        await m.disconnectAll();
        await cache.close();
        return authStorage;
      };
      const start = async (authStorage: ReturnType<typeof createMemoryAuthStorage>) => {
        const cache = await createCacheFromUrl(redis!.url, { key });
        try {
          return await startOnce("linear", config, { cache, authStorage });
        } finally {
          await cache.close();
        }
      };
      const alice = await signIn("alice");
      const discoversAfterSignIn = fixture.counts.discovers;
      const aliceWarm = await start(alice);
      expect(aliceWarm).toMatchObject({ deferred: true });
      expect(aliceWarm.tools).toContain("mcp_linear_notes_alice");
      expect(fixture.counts.discovers).toBe(discoversAfterSignIn);

      const bob = await signIn("bob");
      const bobWarm = await start(bob);
      expect(bobWarm).toMatchObject({ deferred: true });
      expect(bobWarm.tools).toContain("mcp_linear_notes_bob");
      expect(bobWarm.tools).not.toContain("mcp_linear_notes_alice");
      expect((await start(alice)).tools).not.toContain("mcp_linear_notes_bob");
    },
  );
});

describe("in processes of their own", () => {
  const runner = fileURLToPath(new URL("./fixtures/start-once.mjs", import.meta.url));
  /** One start in a new process (its `!command`s run again, its OS user is read again). */
  const run = async (input: object, env: Record<string, string> = {}) => {
    const { stdout } = await execFileAsync(process.execPath, [runner, JSON.stringify(input)], {
      env: { ...process.env, ...env },
    });
    return JSON.parse(stdout) as { handedOver: { servers: Start[] }; failed: Record<string, string> };
  };
  const handedOver = (result: Awaited<ReturnType<typeof run>>) => {
    expect(result.failed).toEqual({});
    return result.handedOver.servers[0];
  };

  it("a !command's output is part of who asks: the same output is warm, a new token a miss", async () => {
    const server = counted(modernServer);
    const tokenFile = join(dir, "token");
    // It takes a while, as a secret manager's CLI does: the tools are handed over once it answered.
    const config = { ...server.config, env: { EXAMPLE_API_KEY: `!sleep 0.3; cat ${tokenFile}` } };
    const input = {
      cwd,
      cache: pathToFileURL(join(dir, "cache")).href,
      key: "k".repeat(32),
      configs: { s: config },
    };
    writeFileSync(tokenFile, "token-1");
    expect(handedOver(await run(input))).toMatchObject(WAITED_FOR);
    expect(handedOver(await run(input))).toMatchObject(WARM);
    expect(server.counts()).toEqual({ processes: 2, probes: 1 });
    writeFileSync(tokenFile, "token-2");
    expect(handedOver(await run(input))).toMatchObject(WAITED_FOR);
    expect(server.counts()).toEqual({ processes: 3, probes: 2 });
  });

  it("two OS users (by HOME, and by the user part) sharing one file store path never cross", async () => {
    const server = counted(modernServer);
    const input = {
      cwd,
      cache: pathToFileURL(join(dir, "cache")).href,
      key: "k".repeat(32),
      configs: { s: server.config },
    };
    const ann = { HOME: join(dir, "ann") };
    const bob = { HOME: join(dir, "bob") };
    expect(handedOver(await run(input, ann))).toMatchObject(WAITED_FOR);
    expect(handedOver(await run(input, ann))).toMatchObject(WARM);
    expect(handedOver(await run(input, bob))).toMatchObject(WAITED_FOR);
    expect(handedOver(await run(input, bob))).toMatchObject(WARM);
    expect(server.counts()).toEqual({ processes: 4, probes: 2 });
    // The same HOME, another user part (`MCPManagerOptions.user`: a host serving several users).
    expect(handedOver(await run({ ...input, user: "carol" }, ann))).toMatchObject(WAITED_FOR);
    expect(handedOver(await run({ ...input, user: "carol" }, ann))).toMatchObject(WARM);
    expect(server.counts()).toEqual({ processes: 6, probes: 3 });
  });
});
