export type {
  CustomTool,
  LoadedCustomTool,
  ToolResult,
  ToolResultContent,
  ToolResultDetails,
} from "./custom-tool.js";
export { DeferredMCPTool } from "./deferred-mcp-tool.js";
export type { DiscoverAndLoadOptions, DiscoverAndLoadResult, MCPLoadError } from "./discover-and-load.js";
export { discoverAndLoadMCPTools, discoverMCPServers } from "./discover-and-load.js";
export type {
  DiscoverAndConnectOptions,
  MCPConnectionStatus,
  MCPLoadResult,
  MCPManagerEvents,
  MCPManagerOptions,
  MCPServerState,
} from "./manager-types.js";
export { DEFAULT_SERVER_TIMEOUT_MS, MCPManager, STARTUP_TIMEOUT_MS } from "./mcp-manager.js";
export type { LiveServer, MCPToolHost, MCPToolOptions } from "./mcp-tool.js";
export { MCPTool } from "./mcp-tool.js";
export { filterServerTools } from "./tool-filter.js";
export type { ToolNameEntry } from "./tool-name.js";
export {
  createMCPToolName,
  createMCPToolNames,
  MAX_TOOL_NAME_LENGTH,
  TOOL_NAME_PATTERN,
} from "./tool-name.js";
export type { CallToolResultLike, ToolResultContext, ToToolResultOptions } from "./tool-result.js";
export { DEFAULT_RESULT_CHAR_LIMIT, toolErrorResult, toToolResult } from "./tool-result.js";
