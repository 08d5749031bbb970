import { toolCacheFingerprint } from "@mcp-rt/cache";
import {
  type AuthStorage,
  hasRuntimeValues,
  loadAllMCPConfigs,
  type MCPServerConfig,
  resolveServerConfig,
  type SourceMeta,
} from "@mcp-rt/config";
import { errorMessage } from "@mcp-rt/config/util";
import type { TypedEmitter } from "./event-emitter.js";
import { discoveryProblem, fileProblem } from "./load-problem.js";
import type {
  DiscoverAndReloadOptions,
  MCPLoadResult,
  MCPManagerEvents,
  MCPManagerOptions,
  MCPReloadOptions,
  MCPReloadResult,
} from "./manager-types.js";
import { keepBrokenFiles, planReload, switchedOff } from "./reload-plan.js";
import type { ServerLifecycle } from "./server-lifecycle.js";
import type { ServerRecord } from "./server-record.js";
import type { ServerTable } from "./server-table.js";
import type { ToolCatalog } from "./tool-catalog.js";

/** What {@link ServerReload} works on: the manager's parts it shares. */
export interface ServerReloadParts {
  /** The project folder: what discovery reads, part of config fingerprints. */
  cwd: string;
  /** Where API keys live, for resolving a config again. */
  authStorage: AuthStorage | undefined;
  options: MCPManagerOptions;
  table: ServerTable;
  catalog: ToolCatalog;
  lifecycle: ServerLifecycle;
  emitter: TypedEmitter<MCPManagerEvents>;
  /** Starts the added and restarted servers through the startup gate (`connectServers`). */
  connectServers(
    configs: Record<string, MCPServerConfig>,
    sources: Record<string, SourceMeta>,
  ): Promise<MCPLoadResult>;
}

/**
 * Reload (docs/architecture.md, "Reload: only what changed"): brings the
 * running servers in line with new configs, one reload at a time, each on
 * what the one before left. {@link planReload} decides what happens to each
 * server; this applies the plan.
 */
export class ServerReload {
  readonly #parts: ServerReloadParts;
  /** The last reload. */
  #reloads: Promise<unknown> = Promise.resolve();

  constructor(parts: ServerReloadParts) {
    this.#parts = parts;
  }

  /** `MCPManager.reload`: queued behind the reload before it. */
  reload(
    configs: Record<string, MCPServerConfig>,
    sources: Record<string, SourceMeta>,
    options: MCPReloadOptions,
  ): Promise<MCPReloadResult> {
    const run = this.#reloads.then(() => this.#reload(configs, sources, options));
    this.#reloads = run.catch(() => undefined);
    return run;
  }

  /** `MCPManager.discoverAndReload`: discovers again and reloads; broken files keep their servers. */
  async discoverAndReload(options: DiscoverAndReloadOptions): Promise<MCPReloadResult> {
    const { cwd, table, catalog } = this.#parts;
    const { discover = loadAllMCPConfigs, all = false, retryFailed = false, ...loadOptions } = options;
    let discovery: Awaited<ReturnType<typeof discover>>;
    try {
      discovery = await discover(cwd, loadOptions);
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

  async #reload(
    configs: Record<string, MCPServerConfig>,
    sources: Record<string, SourceMeta>,
    options: MCPReloadOptions,
  ): Promise<MCPReloadResult> {
    const { table, catalog, lifecycle, emitter, connectServers } = this.#parts;
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
      emitter.emit("config:changed", change);
    }
    // The old processes close while the new ones start; the reload returns once both are done.
    const [result] = await Promise.all([connectServers(plan.start, sources), ...closed]);
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
    const { cwd, authStorage, options } = this.#parts;
    if (!record.runs(config, cwd)) return true;
    const before = record.resolvedFingerprint;
    if (before === undefined || !hasRuntimeValues(config)) return false;
    try {
      const resolved = await resolveServerConfig(record.name, config, {
        cwd,
        fresh: true,
        ...(authStorage ? { authStorage } : {}),
      });
      return toolCacheFingerprint(record.name, resolved, cwd) !== before;
    } catch (error) {
      options.logger?.debug(
        `MCP server "${record.name}": its values could not be resolved again (${errorMessage(error)})`,
      );
      return false;
    }
  }
}
