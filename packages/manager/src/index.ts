// The manager API, and the config, cache and client names a user of the manager needs (README "API").

export type { MCPToolCacheOptions, ToolCacheStore } from "@mcp-rt/cache";
export {
  createAuthStorage,
  createCacheFromUrl,
  createFileStore,
  defaultCacheDir,
  MCPToolCache,
} from "@mcp-rt/cache";
export type {
  ElicitationHandler,
  MCPConnectionCloseEvent,
  MCPElicitationField,
  MCPElicitationRequest,
  MCPElicitationResult,
  MCPElicitationSchema,
  MCPPromptResult,
  MCPResourceContents,
  MCPServerCapabilities,
  MCPServerConnection,
  MCPServerInfo,
  SignInStatus,
  ToolLimits,
} from "@mcp-rt/client";
export { applyElicitationDefaults, checkElicitationContent, openInBrowser } from "@mcp-rt/client/light";
export type {
  AuthStorage,
  CapabilitySource,
  ConfigIssue,
  DiscoveredServer,
  DiscoveryContext,
  LoadConfigsOptions,
  LoadConfigsResult,
  Logger,
  MCPAuthConfig,
  MCPHttpServerConfig,
  MCPPromptArgument,
  MCPServerCommon,
  MCPServerConfig,
  MCPStdioServerConfig,
  MCPToolDefinition,
  McpRtErrorCode,
  ProjectTrust,
  ReserveServer,
  SourceMeta,
  ToolAnnotations,
} from "@mcp-rt/config";
export {
  builtinSources,
  createTrustStore,
  loadAllMCPConfigs,
  McpRtError,
  resolveServerConfig,
  validateServerConfig,
} from "@mcp-rt/config";
export type {
  CustomTool,
  LoadedCustomTool,
  ToolResult,
  ToolResultContent,
  ToolResultDetails,
} from "./custom-tool.js";
export { DeferredMCPTool } from "./deferred-mcp-tool.js";
export type { DiscoverAndLoadOptions, DiscoverAndLoadResult } from "./discover-and-load.js";
export { discoverAndLoadMCPTools, discoverMCPServers, toLoadedTool } from "./discover-and-load.js";
export type { MCPLoadError, MCPLoadProblem } from "./load-problem.js";
export { toLoadErrors } from "./load-problem.js";
export type {
  DiscoverAndConnectOptions,
  DiscoverAndReloadOptions,
  DiscoverFunction,
  MCPConfigChange,
  MCPConnectionStatus,
  MCPLoadResult,
  MCPManagerEvents,
  MCPManagerOptions,
  MCPNotWaitedFor,
  MCPReloadOptions,
  MCPReloadResult,
  MCPServerProtocol,
  MCPServerState,
  MCPStartupMode,
} from "./manager-types.js";
export { MCPManager } from "./mcp-manager.js";
export { MCPTool } from "./mcp-tool.js";
export type { ServerProbe } from "./open-connection.js";
export { DEFAULT_SERVER_TIMEOUT_MS } from "./open-connection.js";
export type { ReconnectOptions } from "./reconnect-policy.js";
export { DEFAULT_RECONNECT_OPTIONS } from "./reconnect-policy.js";
export type { MCPPrompt, MCPResource, MCPResourceTemplate } from "./server-content.js";
export { STARTUP_TIMEOUT_MS } from "./startup-gate.js";
export type { ToolOwner } from "./tool-catalog.js";
export { createMCPToolName, MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN } from "./tool-name.js";
export { DEFAULT_RESULT_CHAR_LIMIT, DEFAULT_RESULT_MEDIA_BYTE_LIMIT } from "./tool-result.js";
