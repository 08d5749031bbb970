import { createCacheFromUrl, type MCPToolCache } from "@mcp-rt/cache";
import type { LoadedCustomTool } from "./custom-tool.js";
import { handOverCache } from "./manager-cache.js";
import type { DiscoverAndConnectOptions, MCPLoadResult, MCPManagerOptions } from "./manager-types.js";
import { MCPManager } from "./mcp-manager.js";

/** Options of {@link discoverAndLoadMCPTools}: discovery, the manager's, and where the cache lives. */
export interface DiscoverAndLoadOptions extends DiscoverAndConnectOptions, MCPManagerOptions {
  /**
   * The tool cache, or a store URL for one (`memory:`, `file:/path`,
   * `redis://host:port`). Wins over `cache`. A URL that cannot be opened is
   * reported in `errors` and startup goes on without a cache. A cache made
   * from a URL belongs to the returned manager: disposing of it
   * (`await manager[Symbol.asyncDispose]()`) closes the cache too.
   */
  cacheStorage?: MCPToolCache | string;
}

/** A file, server or discovery problem, as the loader reports it. */
export interface MCPLoadError {
  /** The config file, `mcp:<server>`, or `.mcp.json` when discovery itself failed. */
  path: string;
  /** What went wrong and what to change. */
  error: string;
}

/** What {@link discoverAndLoadMCPTools} returns. */
export interface DiscoverAndLoadResult {
  /** The manager that owns the connections: keep it, and dispose of it at the end of the session. */
  manager: MCPManager;
  /** Every tool, with `mcp:<server> via <providerName>` as its path. */
  tools: LoadedCustomTool[];
  /** Config file issues, per-server failures, or one discovery failure; startup never throws for them. */
  errors: MCPLoadError[];
  /** API keys of Exa servers removed by `filterExa`. */
  exaApiKeys: string[];
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** What {@link connectAndReport} found. */
export interface ConnectAndReportResult {
  /** The manager's result; `undefined` when discovery itself failed. */
  result: MCPLoadResult | undefined;
  /** File problems, per-server failures (`mcp:<server>`), or one discovery failure (`.mcp.json`). */
  errors: MCPLoadError[];
  /** API keys of the Exa servers discovery left out. */
  exaApiKeys: string[];
}

/**
 * §3.3 on a manager the caller already holds: `manager.discoverAndConnect`,
 * with problems reported as `discoverAndLoadMCPTools` reports them. Never throws.
 */
export async function connectAndReport(
  manager: MCPManager,
  options: DiscoverAndConnectOptions,
): Promise<ConnectAndReportResult> {
  let result: MCPLoadResult;
  try {
    result = await manager.discoverAndConnect(options);
  } catch (error) {
    return { result: undefined, errors: [{ path: ".mcp.json", error: messageOf(error) }], exaApiKeys: [] };
  }
  const errors: MCPLoadError[] = (result.discovery?.errors ?? []).map((issue) => ({
    path: issue.path,
    // Discovery's messages usually name the entry already (`servers.<name>: …`).
    error:
      issue.server === undefined || issue.message.includes(issue.server)
        ? issue.message
        : `${issue.server}: ${issue.message}`,
  }));
  for (const [server, error] of result.errors) errors.push({ path: `mcp:${server}`, error });
  return { result, errors, exaApiKeys: result.exaApiKeys };
}

/**
 * Session start (§3.1, §3.3): discovers the MCP servers of `cwd`, connects them
 * through a new {@link MCPManager} and returns their tools. Never throws for a
 * broken file or server: a discovery failure gives no tools and one error with
 * path `.mcp.json`; file issues come back with the file's path; server
 * failures with path `mcp:<server>`.
 *
 * @example
 * ```ts
 * const { manager, tools, errors } = await discoverAndLoadMCPTools(process.cwd());
 * for (const { path, error } of errors) console.warn(`${path}: ${error}`);
 * ```
 */
export async function discoverAndLoadMCPTools(
  cwd: string,
  options: DiscoverAndLoadOptions = {},
): Promise<DiscoverAndLoadResult> {
  const {
    cacheStorage,
    cache,
    startupTimeoutMs,
    maxStartupWaitMs,
    logger,
    authStorage,
    resultCharLimit,
    reconnect,
    healthCheckIntervalMs,
    healthCheckTimeoutMs,
    ...discovery
  } = options;
  const errors: MCPLoadError[] = [];
  let chosenCache = cache;
  if (typeof cacheStorage === "string") {
    try {
      chosenCache = handOverCache(await createCacheFromUrl(cacheStorage, logger ? { logger } : {}));
    } catch (error) {
      errors.push({
        path: cacheStorage,
        error: `tool cache unavailable, starting without it: ${messageOf(error)}`,
      });
      chosenCache = null;
    }
  } else if (cacheStorage) {
    chosenCache = cacheStorage;
  }
  const manager = new MCPManager(cwd, {
    ...(chosenCache === undefined ? {} : { cache: chosenCache }),
    ...(startupTimeoutMs === undefined ? {} : { startupTimeoutMs }),
    ...(maxStartupWaitMs === undefined ? {} : { maxStartupWaitMs }),
    ...(logger ? { logger } : {}),
    ...(authStorage ? { authStorage } : {}),
    ...(resultCharLimit === undefined ? {} : { resultCharLimit }),
    ...(reconnect === undefined ? {} : { reconnect }),
    ...(healthCheckIntervalMs === undefined ? {} : { healthCheckIntervalMs }),
    ...(healthCheckTimeoutMs === undefined ? {} : { healthCheckTimeoutMs }),
  });

  const loaded = await connectAndReport(manager, discovery);
  errors.push(...loaded.errors);
  const { result } = loaded;
  if (result === undefined) return { manager, tools: [], errors, exaApiKeys: [] };
  const tools = result.tools.map((tool): LoadedCustomTool => {
    const server = manager.getToolOwner(tool.name)?.server;
    const providerName = server === undefined ? undefined : result.discovery?.sources[server]?.providerName;
    return { path: providerName ? `mcp:${server} via ${providerName}` : `mcp:${server}`, tool };
  });
  return { manager, tools, errors, exaApiKeys: result.exaApiKeys };
}

/**
 * The design document's convenience wrapper: the same as
 * {@link discoverAndLoadMCPTools}, under the name an SDK user looks for.
 */
export function discoverMCPServers(
  cwd: string,
  options?: DiscoverAndLoadOptions,
): Promise<DiscoverAndLoadResult> {
  return discoverAndLoadMCPTools(cwd, options);
}
