// The manager API (README "API").

export type { DiscoverAndLoadOptions, DiscoverAndLoadResult } from "./discover-and-load.js";
export { discoverAndLoadMCPTools, discoverMCPServers, toolOrigin } from "./discover-and-load.js";
export type { MCPLoadResult, MCPReloadResult } from "./fleet/load-result.js";
export { STARTUP_TIMEOUT_MS } from "./fleet/startup-gate.js";
export type { MCPLoadError, MCPLoadProblem } from "./load-problem.js";
export { toLoadErrors } from "./load-problem.js";
export type {
  DiscoverAndConnectOptions,
  DiscoverAndReloadOptions,
  DiscoverFunction,
  MCPConfigChange,
  MCPConnectionStatus,
  MCPGetPromptOptions,
  MCPManagerEvents,
  MCPManagerOptions,
  MCPNotWaitedFor,
  MCPReadResourceOptions,
  MCPReloadOptions,
  MCPRequestOptions,
  MCPServerProtocol,
  MCPServerState,
  MCPStartupMode,
  MCPTestServerOptions,
  ReconnectOptions,
} from "./manager-types.js";
export { MCPManager } from "./mcp-manager.js";
export type { ServerProbe } from "./server/probe-server.js";
export type { MCPPrompt, MCPResource, MCPResourceTemplate } from "./server/server-content.js";
export type {
  CustomTool,
  LoadedCustomTool,
  ToolResult,
  ToolResultContent,
  ToolResultDetails,
} from "./tools/custom-tool.js";
export { DeferredMCPTool } from "./tools/deferred-mcp-tool.js";
export { MCPTool } from "./tools/mcp-tool.js";
export type { ToolOwner } from "./tools/tool-catalog.js";
export { createMCPToolName } from "./tools/tool-catalog.js";

// Re-exported: the config, cache and client names a user of the manager needs (README "API").

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
  MCPElicitationCall,
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
export {
  applyElicitationDefaults,
  checkElicitationContent,
  describeEra,
  openInBrowser,
} from "@mcp-rt/client/light";
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
