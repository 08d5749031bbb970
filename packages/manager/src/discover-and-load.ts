import type { LoadConfigsOptions, LoadConfigsResult } from "@mcp-rt/config";
import { type MCPLoadError, type MCPLoadProblem, toLoadErrors } from "./load-problem.js";
import type { DiscoverFunction, MCPManagerOptions } from "./manager-types.js";
import { MCPManager } from "./mcp-manager.js";
import type { LoadedCustomTool } from "./tools/custom-tool.js";
import type { MCPTool } from "./tools/mcp-tool.js";

/** Options of {@link discoverAndLoadMCPTools}: discovery's and the manager's, each in its own bag. */
export interface DiscoverAndLoadOptions {
  /**
   * How servers are found: project config, trust, home, environment, sources…
   * Without `trust`, no project is approved: its servers wait in `needsApproval`.
   */
  discovery?: LoadConfigsOptions;
  /** How the manager runs them: cache (an `MCPToolCache` or a store URL), startup gate, reconnect, logger… */
  manager?: MCPManagerOptions;
  /** Replaces `loadAllMCPConfigs` (tests inject one that throws). */
  discover?: DiscoverFunction;
}

/** What {@link discoverAndLoadMCPTools} returns. */
export interface DiscoverAndLoadResult {
  /** The manager that owns the connections: keep it, and `close()` it at the end of the session. */
  manager: MCPManager;
  /** Every tool, with `mcp:<server> via <providerName>` as its origin. */
  tools: LoadedCustomTool[];
  /** File issues, per-server failures, or one discovery failure, as the design document shows them. */
  errors: MCPLoadError[];
  /** The same problems with their kind and `McpRtError`, for a UI that explains them. */
  problems: MCPLoadProblem[];
  /** What discovery found, and why each server it does not start is left out; absent when discovery threw. */
  discovery?: LoadConfigsResult;
}

/**
 * Which server and config a tool came from, as a UI shows it:
 * `mcp:<server> via <providerName>`, or `mcp:<server>` when its source is unknown.
 */
export function toolOrigin(tool: Pick<MCPTool, "serverName" | "source">): string {
  const via = tool.source?.providerName;
  return via ? `mcp:${tool.serverName} via ${via}` : `mcp:${tool.serverName}`;
}

/**
 * Session start: discovers the MCP servers of `cwd`, connects them through a
 * new {@link MCPManager} and returns their tools. Never throws for a broken
 * file or server: a discovery failure gives no tools and one error with path
 * `.mcp.json`; file issues come back with the file's path; server failures
 * with path `mcp:<server>`. Project-level servers (the project's own files)
 * do not start unless `discovery.trust` approves the project (a
 * `createTrustStore()`) or is `"all"`: they wait in `discovery.needsApproval`.
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
  const manager = new MCPManager(cwd, options.manager);
  const result = await manager.discoverAndConnect({
    ...options.discovery,
    ...(options.discover ? { discover: options.discover } : {}),
  });
  return {
    manager,
    tools: result.tools.map((tool) => ({ origin: toolOrigin(tool), tool })),
    errors: toLoadErrors(result.problems),
    problems: result.problems,
    ...(result.discovery ? { discovery: result.discovery } : {}),
  };
}

/**
 * The design document's name for {@link discoverAndLoadMCPTools}: the same
 * loader, the same result.
 */
export const discoverMCPServers: typeof discoverAndLoadMCPTools = discoverAndLoadMCPTools;
