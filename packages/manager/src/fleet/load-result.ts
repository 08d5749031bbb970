import type { LoadConfigsResult, McpRtError } from "@mcp-rt/config";
import type { MCPLoadProblem } from "../load-problem.js";
import type { MCPConfigChange } from "../manager-types.js";
import type { MCPTool } from "../tools/mcp-tool.js";

/** What `connectServers` / `discoverAndConnect` return. */
export interface MCPLoadResult {
  /** The tools of the servers of this call: live, or deferred from the cache. */
  tools: MCPTool[];
  /** Server name → what went wrong, for servers of this call that failed (or connected and dropped before it returned). */
  errors: Map<string, McpRtError>;
  /** Servers of this call that are connected. */
  connectedServers: string[];
  /**
   * Everything that did not load, in one list: file problems and a discovery
   * failure (`discoverAndConnect`), a tool cache that could not be opened,
   * and the servers of `errors`.
   */
  problems: MCPLoadProblem[];
  /** The full discovery result (`discoverAndConnect` only): disabled, shadowed, filtered, waiting for approval… */
  discovery?: LoadConfigsResult;
}

/** What `reload` / `discoverAndReload` return: what changed, and the servers' load result. */
export interface MCPReloadResult extends MCPLoadResult, MCPConfigChange {}
