import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isStdioConfig, mcpRtPath } from "@mcp-rt/config";
import {
  type CustomTool,
  createFileStore,
  DeferredMCPTool,
  type LoadConfigsOptions,
  MCPManager,
  type MCPServerConfig,
  MCPToolApprovals,
  MCPToolCache,
  type McpRtError,
} from "@mcp-rt/manager";
import { AgentSession } from "@mcp-rt/session";
import type {
  CacheReadLog,
  CallsResult,
  CallsTask,
  PrimeCacheResult,
  PrimeCacheTask,
  ReloadResult,
  ReloadTask,
  StartupResult,
  StartupTask,
} from "../tasks.js";
import {
  cpuTime,
  expectToolCount,
  heapMB,
  peakRssMB,
  processesLeft,
  since,
  startLimit,
  watchEventLoop,
} from "./measure.js";

export { toolCalls } from "./mcp-rt-tool-calls.js";

// Module loading is outside the clock for every contender (README, "How it measures"). The manager
// loads the MCP SDK and the transports (`@mcp-rt/client`) itself, once its cache reads are done; loaded
// here, it is loaded before the clock as the raw SDK's modules are.
await import("@mcp-rt/client");

// The key file sits with the entries, so runs share it and none writes the real ~/.mcp-rt.
function fileCache(dir: string): MCPToolCache {
  return new MCPToolCache(createFileStore(dir), { keyFile: join(dir, "cache-key") });
}

/**
 * A file-store cache that records its reads: each store `get`'s time, and the
 * cache's own words on reads it stopped waiting for and their late answers.
 */
function loggedFileCache(dir: string): { cache: MCPToolCache; log: CacheReadLog } {
  const log: CacheReadLog = { readMs: [], timeouts: [], late: [] };
  const store = createFileStore(dir);
  const get = store.get.bind(store);
  store.get = async <Value>(key: string) => {
    const began = performance.now();
    try {
      return await get<Value>(key);
    } finally {
      log.readMs.push(since(began));
    }
  };
  const ignore = (): void => {};
  const debug = (message: string, data?: unknown): void => {
    const fields = (data ?? {}) as Record<string, unknown>;
    const server = String(fields.server ?? "");
    if (message.includes("not answered after")) {
      log.timeouts.push({
        server,
        elapsedMs: Number(fields.elapsedMs),
        lateMs: Number(fields.lateMs),
        stretchMs: Number(fields.stretchMs),
      });
    } else if (message.includes("late read")) {
      log.late.push({ server, afterMs: Number(fields.afterMs), found: fields.found === true });
    }
  };
  const logger = { debug, info: ignore, warn: ignore, error: ignore };
  return { cache: new MCPToolCache(store, { keyFile: join(dir, "cache-key"), logger }), log };
}

function countDeferred(tools: CustomTool[]): number {
  return tools.filter((tool) => tool instanceof DeferredMCPTool).length;
}

function failures(errors: Map<string, McpRtError>): string {
  return [...errors].map(([name, error]) => `${name}: ${error.message}`).join("; ");
}

/**
 * The product path: `connectServers` (the startup gate, deferred tools from
 * the cache) and the session putting the tools into the agent's registry.
 */
export async function startup(task: StartupTask): Promise<StartupResult> {
  const logged = task.logCacheReads ? loggedFileCache(task.cacheDir) : undefined;
  const limit = startLimit(task.maxConcurrentStarts);
  // Passed through as it is: a manager without the option ignores it, and the start is then today's.
  const pacing: object = limit === undefined ? {} : { maxConcurrentStarts: limit };
  const manager = new MCPManager(task.cwd, {
    ...pacing,
    cache: logged?.cache ?? fileCache(task.cacheDir),
    startupMode: task.contender === "mcp-rt" ? "gate" : "cache-first",
    // The approvals primeCache recorded: every cached list is judged against them before it is handed over.
    ...(task.contender === "mcp-rt-approvals"
      ? { approvals: new MCPToolApprovals({ folder: approvalsDir(task.cacheDir) }) }
      : {}),
    ...(task.maxStartupWaitMs === undefined ? {} : { maxStartupWaitMs: task.maxStartupWaitMs }),
    // Scenario 6 lists 5000 tools on one server, past the default bound of 2000 a server.
    toolLimits: { maxTools: task.expectTools },
  });
  const session = new AgentSession({ cwd: task.cwd, mcpManager: manager });
  const configs: Record<string, MCPServerConfig> = task.servers;

  // Which server holds the start up: each one's time from the start until it was connected and listed.
  const perServerMs: Record<string, number> = {};
  let start = 0;
  const stopWatching = manager.on("server:connected", ({ name }) => {
    perServerMs[name] ??= since(start);
  });
  const stall = watchEventLoop();
  const cpu = cpuTime();
  start = performance.now();
  const result = await manager.connectServers(configs);
  session.refreshMCPTools(result.tools);
  const ms = since(start);
  const loopStallMs = stall();
  const cpuMs = cpu();
  stopWatching();

  const tools = session.registry.list().length;
  const deferred = countDeferred(result.tools);
  const closeStart = performance.now();
  await manager.disconnectAll();
  const closeMs = since(closeStart);
  const left = processesLeft();
  await session.dispose();
  expectToolCount("mcp-rt", tools, task.expectTools, failures(result.errors));
  return {
    kind: "startup",
    ms,
    loopStallMs,
    cpuMs,
    tools,
    deferred,
    peakRssMB: peakRssMB(),
    heap: heapMB(),
    closeMs,
    processesLeft: left,
    // Only when every server was waited for (a cold start): otherwise some came up after the tools were handed over.
    ...(Object.keys(perServerMs).length === Object.keys(configs).length ? { perServerMs } : {}),
    ...(logged ? { cacheReads: logged.log } : {}),
  };
}

async function waitForCacheEntries(
  cache: MCPToolCache,
  configs: Record<string, MCPServerConfig>,
  cwd: string,
): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    // A server whose lists are private has its facts in the plain entry, its tools under its caller.
    const entries = await Promise.all(
      Object.entries(configs).map(([name, config]) => cache.read({ serverName: name, config, cwd })),
    );
    const cached = entries.filter((read) => read.entry !== null || read.facts !== undefined).length;
    if (cached === entries.length || Date.now() > deadline) return cached;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Where a run's approved tool definitions are kept: beside its tool cache. */
function approvalsDir(cacheDir: string): string {
  return join(cacheDir, "tool-approvals");
}

/** Connects every server until it is live, so that its tools land in the cache. */
export async function primeCache(task: PrimeCacheTask): Promise<PrimeCacheResult> {
  const cache = fileCache(task.cacheDir);
  // The first sight of every server is recorded too, for the runs that check approvals.
  const approvals = new MCPToolApprovals({ folder: approvalsDir(task.cacheDir) });
  const manager = new MCPManager(task.cwd, { cache, approvals, maxStartupWaitMs: 60_000 });
  const configs: Record<string, MCPServerConfig> = task.servers;
  await manager.connectServers(configs);
  await Promise.all(Object.keys(configs).map((name) => manager.waitForConnection(name)));
  // disconnectAll waits for the cache and approval writes still under way.
  await manager.disconnectAll();
  await approvals.close();
  return { kind: "prime-cache", cached: await waitForCacheEntries(cache, configs, task.cwd) };
}

/** Sequential calls of one tool through `MCPTool.execute`. */
export async function calls(task: CallsTask): Promise<CallsResult> {
  const manager = new MCPManager(task.cwd, { cache: null });
  try {
    const result = await manager.connectServers({ echo: task.server });
    const echo = result.tools.find((tool) => tool.label === "echo/echo");
    if (!echo) throw new Error(`mcp-rt: no echo tool (${failures(result.errors)})`);
    const call = async (i: number): Promise<void> => {
      const message = `message ${i}`;
      const answer = await echo.execute(`call-${i}`, { message });
      const first = answer.content[0];
      if (answer.isError || first?.type !== "text" || first.text !== message) {
        throw new Error(`mcp-rt: echo answered ${JSON.stringify(answer.content)}`);
      }
    };
    for (let i = 0; i < task.warmupCalls; i++) await call(i);
    const cpu = cpuTime();
    const start = performance.now();
    for (let i = 0; i < task.calls; i++) await call(i);
    const ms = since(start);
    return { kind: "calls", ms, cpuMs: cpu(), calls: task.calls };
  } finally {
    await manager.disconnectAll();
  }
}

/**
 * `/mcp reload` as the design document spells it: `disconnectAll()`, then
 * `discoverAndConnect()` (real discovery of the project's `.mcp-rt/mcp.json`),
 * then `session.refreshMCPTools(manager.getTools())`. The first start, untimed,
 * waits until every server is live and cached.
 */
export async function reload(task: ReloadTask): Promise<ReloadResult> {
  const cache = fileCache(task.cacheDir);
  const manager = new MCPManager(task.cwd, { cache });
  // The bench writes the project's .mcp-rt/mcp.json itself: trusted on purpose.
  const loadOptions: LoadConfigsOptions = {
    homeDir: task.homeDir,
    env: { HOME: task.homeDir },
    trust: "all",
  };
  const session = new AgentSession({ cwd: task.cwd, mcpManager: manager, loadOptions });
  if (task.change) return diffReload(task, { cache, manager, session, loadOptions });
  try {
    const first = await manager.discoverAndConnect(loadOptions);
    const configs = first.discovery?.configs ?? {};
    await Promise.all(Object.keys(configs).map((name) => manager.waitForConnection(name)));
    const cached = await waitForCacheEntries(cache, configs, task.cwd);
    if (cached !== Object.keys(configs).length) {
      throw new Error(`mcp-rt: only ${cached} of ${Object.keys(configs).length} servers were cached`);
    }
    session.refreshMCPTools(manager.getTools());

    const start = performance.now();
    await manager.disconnectAll();
    const disconnectMs = since(start);
    const connectStart = performance.now();
    const result = await manager.discoverAndConnect(loadOptions);
    const connectMs = since(connectStart);
    const registerStart = performance.now();
    session.refreshMCPTools(manager.getTools());
    const registerMs = since(registerStart);
    const ms = since(start);

    const tools = session.registry.list().length;
    expectToolCount("mcp-rt", tools, task.expectTools, failures(result.errors));
    return {
      kind: "reload",
      ms,
      disconnectMs,
      connectMs,
      registerMs,
      tools,
      deferred: countDeferred(manager.getTools()),
    };
  } finally {
    await session.dispose();
  }
}

/** Where a reload benchmark runs: the manager and session of the worker, its cache and discovery options. */
interface ReloadWorld {
  cache: MCPToolCache;
  manager: MCPManager;
  session: AgentSession;
  loadOptions: LoadConfigsOptions;
}

/**
 * `/mcp reload` as it is now: `session.reload()`, which discovers again and
 * restarts only what changed (every server with `change: "all"`, as `--all`
 * does). With `change: "one"` the first server's args are edited before (and
 * put back after), and the edited server is then started alone on a fresh
 * manager without a cache: what one start costs.
 */
async function diffReload(task: ReloadTask, world: ReloadWorld): Promise<ReloadResult> {
  const { cache, manager, session, loadOptions } = world;
  const file = mcpRtPath("mcp.json", task.cwd);
  const original = await readFile(file, "utf8");
  try {
    const first = await manager.discoverAndConnect(loadOptions);
    const configs = first.discovery?.configs ?? {};
    await Promise.all(Object.keys(configs).map((name) => manager.waitForConnection(name)));
    if ((await waitForCacheEntries(cache, configs, task.cwd)) !== Object.keys(configs).length) {
      throw new Error("mcp-rt: not every server was cached");
    }
    session.syncMCPTools();
    let edited: [string, MCPServerConfig] | undefined;
    const [name, config] = Object.entries(configs)[0] ?? [];
    if (task.change === "one" && name && config && isStdioConfig(config)) {
      // Another serverInfo name: new args, the same tools.
      edited = [name, { ...config, args: [...(config.args ?? []), `--name=${name}-edited-${process.pid}`] }];
      const servers = JSON.parse(original).mcpServers;
      await writeFile(file, JSON.stringify({ mcpServers: { ...servers, [name]: edited[1] } }));
    }

    const start = performance.now();
    const result = await session.reload({ all: task.change === "all" });
    const ms = since(start);

    const tools = session.registry.list().length;
    expectToolCount("mcp-rt", tools, task.expectTools, failures(result.errors));
    const restarted = result.added.length + result.restarted.length;
    const expected = { none: 0, one: 1, all: Object.keys(configs).length }[task.change ?? "none"];
    if (restarted !== expected)
      throw new Error(`mcp-rt: ${restarted} servers restarted, expected ${expected}`);
    const oneStartMs = edited ? await oneStart(task.cwd, ...edited) : undefined;
    return {
      kind: "reload",
      ms,
      disconnectMs: 0,
      connectMs: ms,
      registerMs: 0,
      tools,
      deferred: countDeferred(manager.getTools()),
      restarted,
      ...(oneStartMs === undefined ? {} : { oneStartMs }),
    };
  } finally {
    await writeFile(file, original);
    await session.dispose();
  }
}

/** How long `config` takes to start alone: a fresh manager, no cache, until its tools are listed. */
async function oneStart(cwd: string, name: string, config: MCPServerConfig): Promise<number> {
  const alone = new MCPManager(cwd, { cache: null });
  try {
    const start = performance.now();
    const result = await alone.connectServers({ [name]: config });
    const ms = since(start);
    if (!result.connectedServers.includes(name))
      throw new Error(`mcp-rt: ${name} did not start alone (${failures(result.errors)})`);
    return ms;
  } finally {
    await alone.close();
  }
}
