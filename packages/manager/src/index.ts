// The manager API (README "API").

export type { MCPHeldTool, MCPHoldReason, MCPServerChange } from "./approvals/approval-check.js";
export type { MCPToolDiffEntry, MCPWordChange } from "./approvals/definition-diff.js";
export type { MCPPoisoningStrength, PoisoningRule } from "./approvals/poisoning-rules.js";
export { POISONING_RULES, visibleText } from "./approvals/poisoning-rules.js";
export type {
  MCPPoisoningFinding,
  MCPPoisoningSubject,
  PoisoningScanInput,
} from "./approvals/poisoning-scan.js";
export { scanServerText } from "./approvals/poisoning-scan.js";
export type { MCPHeldToolReview, MCPToolReview, MCPToolsHeld } from "./approvals/tool-review.js";
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

export type {
  MCPToolApprovalsOptions,
  MCPToolCacheOptions,
  ToolApprovalsFromUrlOptions,
  ToolCacheStore,
} from "@mcp-rt/cache";
export {
  createAuthStorage,
  createCacheFromUrl,
  createFileStore,
  createToolApprovals,
  defaultCacheDir,
  MCPToolApprovals,
  MCPToolCache,
  toolDefinitionDigest,
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
  MCPPoisoningPolicy,
  MCPPromptArgument,
  MCPServerCommon,
  MCPServerConfig,
  MCPStdioServerConfig,
  MCPToolChangesPolicy,
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
