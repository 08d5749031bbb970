import { toolCacheFingerprint } from "@mcp-rt/cache";
import {
  type AuthStorage,
  hasRuntimeValues,
  type LoadConfigsResult,
  type Logger,
  type MCPServerConfig,
  resolveServerConfig,
  type SourceMeta,
} from "@mcp-rt/config";
import { errorMessage } from "@mcp-rt/config/util";
import type { MCPConfigChange, MCPReloadOptions } from "../manager-types.js";
import type { ServerView } from "../server/server-record.js";

/** What a reload does: the change it reports, what it stops, what it starts, what it leaves alone. */
export interface ReloadPlan {
  change: MCPConfigChange;
  /** Servers to stop: removed, turned off, or to be started again. */
  stop: string[];
  /** Configs for `connectServers`: added and restarted servers, and `enabled: false` ones to remember. */
  start: Record<string, MCPServerConfig>;
  /** Servers left as they are. */
  keep: string[];
}

/** Options of {@link planReload}. */
export interface PlanReloadOptions extends Pick<MCPReloadOptions, "all" | "retryFailed"> {
  /** The servers the fleet has, by name: their state, read-only. */
  servers: ReadonlyMap<string, ServerView>;
  /** The configs the servers should run with now, by name. */
  configs: Record<string, MCPServerConfig>;
  /** Whether a server runs something other than a config (the fleet asks {@link runsOtherConfig}). */
  differs(record: ServerView, config: MCPServerConfig): Promise<boolean>;
}

/** True for a config turned off with `enabled: false`; anything else goes on (garbage is reported by validation). */
export function switchedOff(config: unknown): boolean {
  return typeof config === "object" && config !== null && (config as { enabled?: unknown }).enabled === false;
}

/**
 * Compares the servers that run with the configs they should run with now:
 * a name the table does not know (or only remembers, turned off) is added;
 * a known one whose config or resolved values differ is restarted (every one
 * with `all`, and one that is not running with `retryFailed`); the others are
 * unchanged; names no longer configured, or now turned off, are removed.
 */
export async function planReload(options: PlanReloadOptions): Promise<ReloadPlan> {
  const { servers, configs } = options;
  const change: MCPConfigChange = { added: [], removed: [], restarted: [], unchanged: [] };
  const plan = { change, stop: [] as string[], keep: [] as string[] };
  // Entries, not assignments: a server may be called `__proto__`.
  const start: Array<[string, MCPServerConfig]> = [];
  const entries = Object.entries(configs);
  const restart = await Promise.all(
    entries.map(([name, config]) => {
      const record = servers.get(name);
      if (!record?.started || switchedOff(config)) return false;
      if (options.all || typeof config !== "object" || config === null) return true;
      if (options.retryFailed && !record.active && record.phase !== "needs-auth") return true;
      return options.differs(record, config);
    }),
  );
  entries.forEach(([name, config], i) => {
    const record = servers.get(name);
    if (switchedOff(config)) {
      if (record?.started) {
        plan.stop.push(name);
        change.removed.push(name);
      }
      start.push([name, config]);
    } else if (!record?.started) {
      if (record) plan.stop.push(name);
      start.push([name, config]);
      change.added.push(name);
    } else if (restart[i]) {
      plan.stop.push(name);
      start.push([name, config]);
      change.restarted.push(name);
    } else {
      plan.keep.push(name);
      change.unchanged.push(name);
    }
  });
  for (const record of servers.values()) {
    if (Object.hasOwn(configs, record.name)) continue;
    plan.stop.push(record.name);
    if (record.started) change.removed.push(record.name);
  }
  return { ...plan, start: Object.fromEntries(start) };
}

/** What {@link runsOtherConfig} resolves a config again with. */
export interface RunsOtherConfigOptions {
  /** The project folder: where stdio servers start, part of the fingerprint. */
  cwd: string;
  /** Where API keys live, when the manager has a store. */
  authStorage: AuthStorage | undefined;
  /** Told (at debug level) when a value cannot be resolved again. */
  logger: Logger | undefined;
}

/**
 * Whether `record` runs something other than `config`: another unresolved
 * config, or (for a config with `!cmd` values or an API key, resolved again
 * with fresh command runs) other values reaching the server. A value that
 * cannot be resolved now leaves the server as it is: its next connect says why.
 */
export async function runsOtherConfig(
  record: ServerView,
  config: MCPServerConfig,
  options: RunsOtherConfigOptions,
): Promise<boolean> {
  const { cwd, authStorage } = options;
  if (!record.runsConfig(config, cwd)) return true;
  const before = record.resolvedFingerprint;
  if (before === undefined || !hasRuntimeValues(config)) return false;
  try {
    const resolved = await resolveServerConfig({
      name: record.name,
      config,
      cwd,
      fresh: true,
      ...(authStorage ? { authStorage } : {}),
    });
    return toolCacheFingerprint({ serverName: record.name, config: resolved, cwd }) !== before;
  } catch (error) {
    options.logger?.debug(
      `MCP server "${record.name}": its values could not be resolved again (${errorMessage(error)})`,
    );
    return false;
  }
}

/**
 * The configs and sources a reload should apply after `discovery`: its own,
 * except that a server keeps the config it runs with while its file cannot be
 * read or parsed (caught mid-save, say), while its entry is invalid, or while
 * its source failed; and, while any file is broken, a server that would now
 * wait for project approval keeps running too (the trust hash counts the
 * broken file's entries as gone). A server a policy now forbids is never
 * kept, whatever else is broken.
 */
export function keepBrokenFiles(
  discovery: Pick<LoadConfigsResult, "configs" | "sources" | "errors" | "needsApproval" | "blocked">,
  servers: Iterable<ServerView>,
): { configs: Record<string, MCPServerConfig>; sources: Record<string, SourceMeta> } {
  const configs = Object.entries(discovery.configs);
  const sources = Object.entries(discovery.sources);
  const brokenFiles = new Set(
    discovery.errors.filter((issue) => issue.server === undefined).map((i) => i.path),
  );
  const invalid = new Set(
    discovery.errors.flatMap((issue) => (issue.server === undefined ? [] : [issue.server])),
  );
  const waiting = new Set(brokenFiles.size > 0 ? discovery.needsApproval.map((entry) => entry.name) : []);
  const forbidden = new Set(discovery.blocked?.map((entry) => entry.name));
  for (const record of servers) {
    const { name, source } = record;
    if (forbidden.has(name)) continue;
    const held =
      invalid.has(name) ||
      waiting.has(name) ||
      (source !== undefined &&
        (brokenFiles.has(source.path) || brokenFiles.has(`source:${source.provider}`)));
    if (!held || !record.started) continue;
    // Later entries win in `Object.fromEntries`, which also keeps a name like `__proto__` an own key.
    configs.push([name, record.config]);
    if (source) sources.push([name, source]);
  }
  return { configs: Object.fromEntries(configs), sources: Object.fromEntries(sources) };
}
