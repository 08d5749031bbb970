import { toolCacheFingerprint } from "@mcp-rt/cache";
import {
  type AuthStorage,
  hasRuntimeValues,
  loadAllMCPConfigs,
  type MCPServerConfig,
  McpRtError,
  resolveServerConfig,
  type SourceMeta,
  validateServerConfig,
} from "@mcp-rt/config";
import { errorMessage, monotonicMs, type TaskGroup } from "@mcp-rt/config/util";
import type { TypedEmitter } from "../event-emitter.js";
import { discoveryProblem, fileProblem, type MCPLoadProblem } from "../load-problem.js";
import type { ManagerCache } from "../manager-cache.js";
import type {
  DiscoverAndConnectOptions,
  DiscoverAndReloadOptions,
  MCPLoadResult,
  MCPManagerEvents,
  MCPManagerOptions,
  MCPReloadOptions,
  MCPReloadResult,
  MCPStartupMode,
} from "../manager-types.js";
import type { Attempt } from "../server/attempt.js";
import { ServerLifecycle } from "../server/server-lifecycle.js";
import type { ServerLimits } from "../server/server-limits.js";
import type { ServerRecord } from "../server/server-record.js";
import { dropError } from "../server/server-upkeep.js";
import type { LiveServer, MCPToolHost } from "../tools/mcp-tool.js";
import { ToolCatalog } from "../tools/tool-catalog.js";
import { keepBrokenFiles, planReload, switchedOff } from "./reload-plan.js";
import { ServerRequests } from "./server-requests.js";
import { ServerTable } from "./server-table.js";
import { StartPace } from "./start-pace.js";
import { passStartupGate, STARTUP_TIMEOUT_MS } from "./startup-gate.js";

/** What a {@link Fleet} is made with. */
export interface FleetOptions {
  /** The project folder: where stdio servers start, what discovery reads, part of cache keys. */
  cwd: string;
  options: MCPManagerOptions;
  /** When the startup gate passes (the option, checked). */
  startupMode: MCPStartupMode;
  /** What each server may send, from the options. */
  limits: ServerLimits;
  /** Where API keys and sign-ins live, when the manager has a store. */
  authStorage: AuthStorage | undefined;
  cache: ManagerCache;
  emitter: TypedEmitter<MCPManagerEvents>;
  /** Background work `disconnectAll` waits for. */
  tasks: TaskGroup;
}

/**
 * Every server of a manager together (docs/architecture.md, "The fleet"): the
 * table of servers and their exposed tools; starting many at once through
 * the startup gate; stopping one or all; and reload, a plan computed from the
 * running servers and the new configs ({@link planReload}), then applied.
 * One server's life is the {@link ServerLifecycle}'s.
 */
export class Fleet {
  /** Every server by name. */
  readonly table: ServerTable = new ServerTable();
  /** The exposed tools, built from every server's slice. */
  readonly catalog: ToolCatalog;
  /** One server's life: attempts, commits, failures, sign-ins, stops. */
  readonly lifecycle: ServerLifecycle;
  /** Requests on a caller's behalf: waiting for a connection, resources, prompts. */
  readonly requests: ServerRequests;
  readonly #cwd: string;
  readonly #options: MCPManagerOptions;
  readonly #startupMode: MCPStartupMode;
  readonly #authStorage: AuthStorage | undefined;
  readonly #cache: ManagerCache;
  readonly #emitter: TypedEmitter<MCPManagerEvents>;
  /** The last reload: reloads run one at a time, each on what the one before left. */
  #reloads: Promise<unknown> = Promise.resolve();

  /** @throws McpRtError `CONFIG_INVALID` naming the option, for a `reconnect` or health-check value out of range. */
  constructor(options: FleetOptions) {
    const { cwd, cache, emitter, authStorage, limits } = options;
    this.#cwd = cwd;
    this.#options = options.options;
    this.#startupMode = options.startupMode;
    this.#authStorage = authStorage;
    this.#cache = cache;
    this.#emitter = emitter;
    this.requests = new ServerRequests({ table: this.table, limits });
    const host: MCPToolHost = {
      resultCharLimit: limits.resultCharLimit,
      resultMediaByteLimit: limits.resultMediaByteLimit,
      liveServer: (server) => this.#liveServer(server),
      waitForConnection: async (server, signal) => {
        await this.requests.waitForConnection(server, signal ? { signal } : {});
      },
      signInRequired: (server, error) => {
        const record = this.table.get(server);
        if (record && McpRtError.isInstance(error)) this.lifecycle.signInLost(record, error);
      },
    };
    this.catalog = new ToolCatalog(this.table, host);
    this.lifecycle = new ServerLifecycle({
      cwd,
      options: options.options,
      limits,
      authStorage,
      table: this.table,
      catalog: this.catalog,
      cache,
      emitter,
      tasks: options.tasks,
      pace: new StartPace(),
    });
  }

  /** `MCPManager.discoverAndConnect`: discovers, then connects what it found; a discovery that throws is one problem. */
  async discoverAndConnect(options: DiscoverAndConnectOptions = {}): Promise<MCPLoadResult> {
    const { discover = loadAllMCPConfigs, ...loadOptions } = options;
    let discovery: Awaited<ReturnType<typeof discover>>;
    try {
      discovery = await discover(this.#cwd, loadOptions);
    } catch (error) {
      return { tools: [], errors: new Map(), connectedServers: [], problems: [discoveryProblem(error)] };
    }
    const result = await this.connectServers(discovery.configs, discovery.sources);
    return { ...result, problems: [...discovery.errors.map(fileProblem), ...result.problems], discovery };
  }

  /** `MCPManager.connectServers`: starts every server not running, then passes the startup gate. */
  async connectServers(
    configs: Record<string, MCPServerConfig>,
    sources: Record<string, SourceMeta> = {},
  ): Promise<MCPLoadResult> {
    const startedAt = monotonicMs();
    const errors = new Map<string, McpRtError>();
    const names: string[] = [];
    const attempts = new Map<string, Attempt>();
    for (const [name, config] of Object.entries(configs)) {
      const source = sources[name];
      const enabled = !switchedOff(config);
      const running = this.table.get(name);
      if (running?.active) {
        if (source) running.from(source);
        if (!enabled) continue;
        names.push(name);
        if (running.attempt && !running.attempt.outcome) attempts.set(name, running.attempt);
        continue;
      }
      const record = this.table.ensure(name, config);
      if (source) record.from(source);
      if (!enabled) continue;
      names.push(name);
      const problems = validateServerConfig(name, config);
      if (problems.length > 0) {
        const error = new McpRtError(
          "CONFIG_INVALID",
          `MCP server "${name}" has an invalid config${source ? ` in ${source.path}` : ""}: ${problems.join("; ")}`,
          { server: name },
        );
        this.lifecycle.fail(record, error);
        errors.set(name, error);
        continue;
      }
      attempts.set(name, this.lifecycle.start(record, config));
    }

    const { maxStartupWaitMs } = this.#options;
    await passStartupGate([...attempts.values()], {
      startupTimeoutMs: this.#options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS,
      maxStartupWaitMs,
      mode: this.#startupMode,
      startedAt,
      defer: (offers) => this.lifecycle.defer(offers),
      notWaitedFor: (late, reason) => this.lifecycle.notWaitedFor(late, reason, maxStartupWaitMs ?? 0),
    });

    for (const [name, attempt] of attempts) {
      attempt.returned = true;
      if (attempt.outcome?.ok === false) errors.set(name, attempt.outcome.error);
      // Dropped after it connected: since then no other attempt started, or only automatic reconnects.
      const record = this.table.get(name);
      const latest = record?.attempt;
      const dropped =
        record &&
        attempt.outcome?.ok &&
        !record.connection &&
        !attempt.controller.signal.aborted &&
        (latest === attempt || latest?.reconnect === true);
      if (dropped) errors.set(name, dropError(record));
    }
    const wanted = new Set(names);
    const cacheProblem = this.#cache.takeProblem();
    const serverProblems = [...errors].map(
      ([server, error]): MCPLoadProblem => ({ kind: "server", server, error }),
    );
    return {
      tools: this.catalog.tools.filter((tool) => wanted.has(tool.serverName)),
      errors,
      connectedServers: names.filter((name) => this.table.status(name) === "connected"),
      problems: cacheProblem ? [cacheProblem, ...serverProblems] : serverProblems,
    };
  }

  /** `MCPManager.reload`: queued behind the reload before it. */
  reload(
    configs: Record<string, MCPServerConfig>,
    sources: Record<string, SourceMeta> = {},
    options: MCPReloadOptions = {},
  ): Promise<MCPReloadResult> {
    const run = this.#reloads.then(() => this.#reload(configs, sources, options));
    this.#reloads = run.catch(() => undefined);
    return run;
  }

  /** `MCPManager.discoverAndReload`: discovers again and reloads; broken files keep their servers. */
  async discoverAndReload(options: DiscoverAndReloadOptions = {}): Promise<MCPReloadResult> {
    const { table, catalog } = this;
    const { discover = loadAllMCPConfigs, all = false, retryFailed = false, ...loadOptions } = options;
    let discovery: Awaited<ReturnType<typeof discover>>;
    try {
      discovery = await discover(this.#cwd, loadOptions);
    } catch (error) {
      const names = table.names();
      return {
        added: [],
        removed: [],
        restarted: [],
        unchanged: names,
        tools: [...catalog.tools],
        errors: new Map(),
        connectedServers: names.filter((name) => table.status(name) === "connected"),
        problems: [discoveryProblem(error)],
      };
    }
    const { configs, sources } = keepBrokenFiles(discovery, table);
    const result = await this.reload(configs, sources, { all, retryFailed });
    return { ...result, problems: [...discovery.errors.map(fileProblem), ...result.problems], discovery };
  }

  /** `MCPManager.disconnectServer`: stops `name`; resolves once what it had open is closed. */
  async stop(name: string): Promise<void> {
    const record = this.table.get(name);
    if (record) await this.lifecycle.stop(record);
  }

  /** Stops every server; what they had open closes in the background (the manager's tasks). */
  stopAll(): void {
    this.lifecycle.stopAll();
  }

  /** The plan (what to stop, start, keep), then its application: the old processes close while the new ones start. */
  async #reload(
    configs: Record<string, MCPServerConfig>,
    sources: Record<string, SourceMeta>,
    options: MCPReloadOptions,
  ): Promise<MCPReloadResult> {
    const { table, catalog, lifecycle } = this;
    const plan = await planReload({
      ...options,
      table,
      configs,
      differs: (record, config) => this.#differs(record, config),
    });
    const closed = plan.stop.map((record) => lifecycle.stop(record));
    for (const record of plan.keep) {
      const source = sources[record.name];
      if (source) record.from(source);
      // Equal where it counts for the running server; fields such as `alwaysLoad` may still have changed.
      const config = configs[record.name];
      if (config) record.configure(config);
    }
    const { change } = plan;
    if (change.added.length + change.removed.length + change.restarted.length > 0) {
      this.#emitter.emit("config:changed", change);
    }
    const [result] = await Promise.all([this.connectServers(plan.start, sources), ...closed]);
    const names = Object.keys(configs).filter((name) => !switchedOff(configs[name]));
    const wanted = new Set(names);
    return {
      ...change,
      tools: catalog.tools.filter((tool) => wanted.has(tool.serverName)),
      errors: result.errors,
      connectedServers: names.filter((name) => table.status(name) === "connected"),
      problems: result.problems,
    };
  }

  /**
   * Whether `record` runs something other than `config`: another unresolved
   * config, or (for a config with `!cmd` values or an API key, resolved again
   * with fresh command runs) other values reaching the server. A value that
   * cannot be resolved now leaves the server as it is: its next connect says why.
   */
  async #differs(record: ServerRecord, config: MCPServerConfig): Promise<boolean> {
    const cwd = this.#cwd;
    if (!record.runs(config, cwd)) return true;
    const before = record.resolvedFingerprint;
    if (before === undefined || !hasRuntimeValues(config)) return false;
    try {
      const resolved = await resolveServerConfig({
        name: record.name,
        config,
        cwd,
        fresh: true,
        ...(this.#authStorage ? { authStorage: this.#authStorage } : {}),
      });
      return toolCacheFingerprint({ serverName: record.name, config: resolved, cwd }) !== before;
    } catch (error) {
      this.#options.logger?.debug(
        `MCP server "${record.name}": its values could not be resolved again (${errorMessage(error)})`,
      );
      return false;
    }
  }

  /** A server as a tool sees it when it is called: live, connecting, or why it cannot be used. */
  #liveServer(server: string): LiveServer {
    const record = this.table.get(server);
    if (!record) return { error: `server "${server}" disconnected: it was removed from this session` };
    // A connected server's definitions are always its live ones (the cached ones only stand in before).
    if (record.connection) return { connection: record.connection, toolNames: record.toolNames };
    // A call to a server that dropped fails fast, even during a reconnect attempt: a model should not stall on it.
    if (record.reconnecting) return { error: record.unavailable() };
    if (record.active) return { pending: true };
    return { error: record.unavailable() };
  }
}
