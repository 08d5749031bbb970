import type { MCPToolCache } from "@mcp-rt/cache";
import { DEFAULT_CONNECT_TIMEOUT_MS, localUser } from "@mcp-rt/client/light";
import {
  type AuthStorage,
  type LoadConfigsResult,
  loadAllMCPConfigs,
  type MCPServerConfig,
  McpRtError,
  type SourceMeta,
  validateServerConfig,
} from "@mcp-rt/config";
import { monotonicMs, TaskGroup } from "@mcp-rt/config/util";
import { ToolApprovalKeeper } from "../approvals/approval-keeper.js";
import { resolveApprovalPolicies } from "../approvals/approval-policy.js";
import { distinctiveToolNames } from "../approvals/other-tools.js";
import { createEmitter, type TypedEmitter } from "../event-emitter.js";
import { discoveryProblem, fileProblem, type MCPLoadProblem } from "../load-problem.js";
import type {
  DiscoverAndConnectOptions,
  DiscoverAndReloadOptions,
  MCPManagerEvents,
  MCPManagerOptions,
  MCPReloadOptions,
  MCPStartupMode,
  MCPTestServerOptions,
} from "../manager-types.js";
import type { Attempt } from "../server/attempt.js";
import { type ConnectSettings, connectAndList } from "../server/connect-and-list.js";
import { HealthMonitor, resolveHealthCheck } from "../server/health-monitor.js";
import { probeServer, type ServerProbe } from "../server/probe-server.js";
import { resolveReconnectOptions } from "../server/reconnect-policy.js";
import { collectContent, type ServerContent } from "../server/server-content.js";
import { resolveServerLimits, type ServerLimits } from "../server/server-limits.js";
import { ServerSupervisor } from "../server/server-supervisor.js";
import type { SupervisorContext } from "../server/supervisor-context.js";
import { ToolCatalog } from "../tools/tool-catalog.js";
import type { MCPLoadResult, MCPReloadResult } from "./load-result.js";
import { keepBrokenFiles, planReload, runsOtherConfig, switchedOff } from "./reload-plan.js";
import { ServerSignIn } from "./server-sign-in.js";
import { ServerTable } from "./server-table.js";
import { StartPace } from "./start-pace.js";
import { type DeferOffer, passStartupGate, resolveStartupMode, STARTUP_TIMEOUT_MS } from "./startup-gate.js";

/** What a {@link Fleet} is made with: the manager's folder and options, and the stores it opened. */
export interface FleetOptions {
  /** The project folder: where stdio servers start, what discovery reads, part of cache keys. */
  cwd: string;
  options: MCPManagerOptions;
  /** The tool cache (once open), and the problem opening it met, if any, to report once. */
  cache: { get(): Promise<MCPToolCache | null>; takeProblem(): MCPLoadProblem | undefined };
  /** Where API keys and sign-ins live, when the manager has a store. */
  authStorage: AuthStorage | undefined;
}

/**
 * Every server of a manager together (docs/architecture.md, "The fleet"): a
 * table of one {@link ServerSupervisor} per server, the exposed tools built
 * from their slices, the events and the background work; starting many at
 * once through the startup gate; stopping one or all; and reload, a plan
 * computed from the running servers and the new configs ({@link planReload}),
 * then applied.
 */
export class Fleet {
  /** Every server by name, and requests on a caller's behalf: waiting for a connection, resources, prompts. */
  readonly table: ServerTable;
  /** The exposed tools, built from every server's slice. */
  readonly catalog: ToolCatalog;
  /** Sign-in, sign-out and API keys. */
  readonly signIn: ServerSignIn;
  /** What listeners are told. */
  readonly emitter: TypedEmitter<MCPManagerEvents>;
  /** Background work (closes, cache writes) that `idle` waits for. */
  readonly #tasks = new TaskGroup();
  readonly #cwd: string;
  readonly #options: MCPManagerOptions;
  readonly #startupMode: MCPStartupMode;
  readonly #limits: ServerLimits;
  readonly #authStorage: AuthStorage | undefined;
  readonly #cache: FleetOptions["cache"];
  /** `null` without `healthCheckIntervalMs`. */
  readonly #health: HealthMonitor | null;
  /** What every supervisor is made with. */
  readonly #context: SupervisorContext;
  /** The last reload: reloads run one at a time, each on what the one before left. */
  #reloads: Promise<unknown> = Promise.resolve();

  /** @throws McpRtError `CONFIG_INVALID` naming the option, for a `reconnect`, health-check, limit or `startupMode` value out of range. */
  constructor({ cwd, options, cache, authStorage }: FleetOptions) {
    this.#cwd = cwd;
    this.#options = options;
    this.#limits = resolveServerLimits(options);
    this.#startupMode = resolveStartupMode(options.startupMode);
    this.#authStorage = authStorage;
    this.#cache = cache;
    this.emitter = createEmitter<MCPManagerEvents>((error) =>
      options.logger?.warn("An MCPManager event listener threw", error),
    );
    const reconnect = resolveReconnectOptions(options.reconnect);
    const health = resolveHealthCheck(options);
    const limits = this.#limits;
    const settings: ConnectSettings = {
      cwd,
      authStorage,
      user: options.user ?? localUser(),
      maxMessageBytes: limits.maxMessageBytes,
      onElicitation: options.onElicitation,
      openUrl: options.openUrl,
      signInTimeoutMs: options.signInTimeoutMs,
      logger: options.logger,
    };
    this.table = new ServerTable(limits);
    const approvals = new ToolApprovalKeeper({
      store: options.approvals ?? null,
      policies: resolveApprovalPolicies(options),
      onHeld: (event) => this.emitter.emit("tools:held", event),
      tasks: this.#tasks,
      logger: options.logger,
    });
    this.signIn = new ServerSignIn({ table: this.table, authStorage });
    this.catalog = new ToolCatalog(this.table, this.table, {
      names: options.reservedToolNames ?? [],
      onReserved: ({ server, tool, reserved, name }) =>
        options.logger?.warn(
          `MCP server "${server}": its tool "${tool}" would be exposed as "${reserved}", the name of one of the agent's own tools; it is exposed as "${name}"`,
        ),
    });
    this.#context = {
      settings,
      limits,
      reconnect,
      cache,
      emitter: this.emitter,
      tasks: this.#tasks,
      pace: new StartPace(
        options.maxConcurrentStarts === undefined ? {} : { maxConcurrentStarts: options.maxConcurrentStarts },
      ),
      catalog: this.catalog,
      approvals,
      otherTools: (name) => distinctiveToolNames(this.table.views(), name),
      connectAndList,
    };
    this.#health = health
      ? new HealthMonitor({
          ...health,
          connections: () => this.table.connections(),
          onUnhealthy: (connection, error) => this.table.get(connection.name)?.unhealthy(connection, error),
        })
      : null;
    // Pings run while any server is connected (the monitor stops itself when none is).
    if (this.#health) this.emitter.on("server:connected", () => this.#health?.start());
  }

  /** `MCPManager.discoverAndConnect`: discovers, then connects what it found; a discovery that throws is one problem. */
  discoverAndConnect(options: DiscoverAndConnectOptions = {}): Promise<MCPLoadResult> {
    return this.#afterDiscovery(options, {
      use: (discovery) => this.connectServers(discovery.configs, discovery.sources),
      unchanged: () => this.#loadResult([], { errors: new Map(), problems: [] }),
    });
  }

  /**
   * Discovers (`loadAllMCPConfigs`, or `options.discover`) and hands what it
   * found to `use`; the files' problems come first in the result, which
   * carries the discovery. A discovery that throws is one problem, on the
   * result of nothing done (`unchanged`).
   */
  async #afterDiscovery<R extends MCPLoadResult>(
    options: DiscoverAndConnectOptions,
    steps: { use(discovery: LoadConfigsResult): Promise<R>; unchanged(): R },
  ): Promise<R> {
    const { discover = loadAllMCPConfigs, ...loadOptions } = options;
    let discovery: LoadConfigsResult;
    try {
      discovery = await discover(this.#cwd, loadOptions);
    } catch (error) {
      return { ...steps.unchanged(), problems: [discoveryProblem(error)] };
    }
    const result = await steps.use(discovery);
    return { ...result, problems: [...discovery.errors.map(fileProblem), ...result.problems], discovery };
  }

  /** The load result of the servers `names`: their tools, and which of them are connected. */
  #loadResult(names: readonly string[], outcome: Pick<MCPLoadResult, "errors" | "problems">): MCPLoadResult {
    const wanted = new Set(names);
    return {
      tools: this.catalog.tools.filter((tool) => wanted.has(tool.serverName)),
      errors: outcome.errors,
      connectedServers: names.filter((name) => this.table.status(name) === "connected"),
      problems: outcome.problems,
    };
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
      if (running?.record.active) {
        if (source) running.from(source);
        if (!enabled) continue;
        names.push(name);
        const { attempt } = running.record;
        if (attempt && !attempt.outcome) attempts.set(name, attempt);
        continue;
      }
      const supervisor = this.#ensure(name, config);
      if (source) supervisor.from(source);
      if (!enabled) continue;
      names.push(name);
      const problems = validateServerConfig(name, config);
      if (problems.length > 0) {
        const error = new McpRtError(
          "CONFIG_INVALID",
          `MCP server "${name}" has an invalid config${source ? ` in ${source.path}` : ""}: ${problems.join("; ")}`,
          { server: name },
        );
        supervisor.fail(error);
        errors.set(name, error);
        continue;
      }
      attempts.set(name, supervisor.start());
    }

    const { maxStartupWaitMs } = this.#options;
    await passStartupGate([...attempts.values()], {
      startupTimeoutMs: this.#options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS,
      maxStartupWaitMs,
      mode: this.#startupMode,
      startedAt,
      defer: (offers) => this.#defer(offers),
      notWaitedFor: (late, reason) => {
        for (const attempt of late) {
          this.table.get(attempt.name)?.notWaitedFor(attempt, reason, maxStartupWaitMs ?? 0);
        }
      },
    });

    for (const [name, attempt] of attempts) {
      attempt.markReturned();
      if (attempt.outcome?.ok === false) errors.set(name, attempt.outcome.error);
      const dropped = this.table.get(name)?.droppedSince(attempt);
      if (dropped) errors.set(name, dropped);
    }
    const cacheProblem = this.#cache.takeProblem();
    const serverProblems = [...errors].map(
      ([server, error]): MCPLoadProblem => ({ kind: "server", server, error }),
    );
    return this.#loadResult(names, {
      errors,
      problems: cacheProblem ? [cacheProblem, ...serverProblems] : serverProblems,
    });
  }

  /**
   * The startup gate offers the cached tools of the attempts still pending:
   * they stand in as deferred tools, named together in one rebuild. Returns
   * the attempts whose cached tools were used (those still current).
   */
  #defer(offers: readonly DeferOffer[]): ReadonlySet<Attempt> {
    const used = new Set<Attempt>();
    const deferred: ServerSupervisor[] = [];
    for (const { attempt, cached } of offers) {
      const supervisor = this.table.get(attempt.name);
      if (!supervisor?.defer(attempt, cached)) continue;
      used.add(attempt);
      deferred.push(supervisor);
    }
    for (const supervisor of deferred) supervisor.announce();
    return used;
  }

  /** `MCPManager.reload`: queued behind the reload before it. */
  reload(options: MCPReloadOptions): Promise<MCPReloadResult> {
    const run = this.#reloads.then(() => this.#reload(options));
    this.#reloads = run.catch(() => undefined);
    return run;
  }

  /** `MCPManager.discoverAndReload`: discovers again and reloads; broken files keep their servers. */
  discoverAndReload(options: DiscoverAndReloadOptions = {}): Promise<MCPReloadResult> {
    const { all = false, retryFailed = false, ...discoverOptions } = options;
    return this.#afterDiscovery(discoverOptions, {
      use: (discovery) =>
        this.reload({ ...keepBrokenFiles(discovery, this.table.views()), all, retryFailed }),
      unchanged: () => {
        const names = this.table.names();
        const result = this.#loadResult(names, { errors: new Map(), problems: [] });
        return { added: [], removed: [], restarted: [], unchanged: names, ...result };
      },
    });
  }

  /** `MCPManager.disconnectServer`: stops `name`; resolves once what it had open is closed. */
  async stop(name: string): Promise<void> {
    const supervisor = this.table.forget(name);
    if (!supervisor) return;
    const retired = supervisor.retire();
    if (retired.hadTools) this.catalog.invalidate();
    supervisor.announce();
    await retired.closed;
  }

  /**
   * Stops every server, rebuilding the tools once: no ping timer is left
   * (reconnect timers go with their servers). What they had open closes in
   * the background; `idle` waits for it.
   */
  stopAll(): void {
    const stopped = this.table.names().flatMap((name) => this.table.forget(name) ?? []);
    for (const supervisor of stopped) supervisor.retire();
    this.#health?.stop();
    this.catalog.invalidate();
    for (const supervisor of stopped) supervisor.announce();
  }

  /** Resolves once the background work (closes, cache writes) is done, also work started meanwhile. */
  idle(): Promise<void> {
    return this.#tasks.idle();
  }

  /** Every server's resources, resource templates or prompts: live, or cached while it is deferred. */
  content<K extends keyof ServerContent>(list: K): ReturnType<typeof collectContent<K>> {
    return collectContent(this.table.views(), list);
  }

  /** `MCPManager.testServer`: connects on a connection of its own, lists, closes. */
  testServer(options: MCPTestServerOptions): Promise<ServerProbe> {
    const { name, config } = options;
    // The connect and the list each have the time limit: their errors say which step timed out.
    const timeoutMs = options.timeoutMs ?? config.timeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
    return probeServer({
      name,
      config,
      cwd: this.#cwd,
      signal: options.signal ?? new AbortController().signal,
      timeoutMs,
      authStorage: this.#authStorage,
      user: this.#context.settings.user,
      sourcePath: options.sourcePath,
      maxMessageBytes: this.#limits.maxMessageBytes,
      toolLimits: this.#limits.toolLimits,
    });
  }

  /** The plan (what to stop, start, keep), then its application: the old processes close while the new ones start. */
  async #reload(options: MCPReloadOptions): Promise<MCPReloadResult> {
    const { configs, sources = {} } = options;
    const { table } = this;
    const plan = await planReload({
      ...options,
      servers: new Map(table.views().map((record) => [record.name, record])),
      configs,
      differs: (record, config) =>
        runsOtherConfig(record, config, {
          cwd: this.#cwd,
          authStorage: this.#authStorage,
          logger: this.#options.logger,
        }),
    });
    const closed = plan.stop.map((name) => this.stop(name));
    for (const name of plan.keep) {
      const supervisor = table.get(name);
      const source = sources[name];
      if (source) supervisor?.from(source);
      // Equal where it counts for the running server; fields such as `alwaysLoad` may still have changed.
      const config = configs[name];
      if (config) supervisor?.configure(config);
    }
    const { change } = plan;
    if (change.added.length + change.removed.length + change.restarted.length > 0) {
      this.emitter.emit("config:changed", change);
    }
    const [result] = await Promise.all([this.connectServers(plan.start, sources), ...closed]);
    const names = Object.keys(configs).filter((name) => !switchedOff(configs[name]));
    return { ...change, ...this.#loadResult(names, result) };
  }

  /** The supervisor of `name` with `config` as its latest config; made when the server is new. */
  #ensure(name: string, config: MCPServerConfig): ServerSupervisor {
    const known = this.table.get(name);
    if (known) {
      known.configure(config);
      return known;
    }
    return this.table.add(new ServerSupervisor(name, config, this.#context));
  }
}
