// The session API, and the config, cache and manager names an agent wires it with, so that this package is enough.

export type { ConfigFormat } from "@mcp-rt/config";
export { createNativeSource, readConfigFile } from "@mcp-rt/config";
export type {
  AuthStorage,
  CapabilitySource,
  CustomTool,
  DiscoveredServer,
  ElicitationHandler,
  LoadConfigsOptions,
  LoadConfigsResult,
  LoadedCustomTool,
  Logger,
  MCPConfigChange,
  MCPElicitationField,
  MCPElicitationRequest,
  MCPElicitationResult,
  MCPElicitationSchema,
  MCPLoadError,
  MCPLoadProblem,
  MCPLoadResult,
  MCPManagerOptions,
  MCPPrompt,
  MCPReloadResult,
  MCPResource,
  MCPServerConfig,
  MCPServerState,
  ProjectTrust,
  SignInStatus,
  SourceMeta,
  ToolResult,
} from "@mcp-rt/manager";
export {
  applyElicitationDefaults,
  builtinSources,
  checkElicitationContent,
  createAuthStorage,
  createCacheFromUrl,
  createFileStore,
  createTrustStore,
  loadAllMCPConfigs,
  MCPManager,
  MCPToolCache,
  McpRtError,
  openInBrowser,
  toLoadErrors,
} from "@mcp-rt/manager";
export type { AgentSessionOptions, SessionReloadOptions } from "./agent-session.js";
export { AgentSession } from "./agent-session.js";
export type { CreateAgentSessionOptions, CreateAgentSessionResult } from "./create-agent-session.js";
export { createAgentSession, SESSION_MAX_STARTUP_WAIT_MS } from "./create-agent-session.js";
export type { NativeExa } from "./exa-rule.js";
export type { MCPCommandControllerOptions } from "./mcp-command-controller.js";
export { MCPCommandController } from "./mcp-command-controller.js";
export type { MCPCommandResult } from "./mcp-command-result.js";
export type {
  MCPListEntry,
  MCPListGroup,
  MCPListSource,
  MCPListStatus,
  MCPServerList,
} from "./mcp-server-list.js";
export { DEFAULT_MAX_LOADED_TOOLS, ModelTools, TOOL_SEARCH_NAME } from "./model-tools.js";
export type {
  ConfigScope,
  NativeConfigFile,
  NativeConfigWriter,
  NativeConfigWriterOptions,
} from "./native-config-writer.js";
export { createNativeConfigWriter } from "./native-config-writer.js";
export type { AttachedLine, ResourceAttachment } from "./resource-attachments.js";
export { LIST_RESOURCES_NAME, READ_RESOURCE_NAME, ResourceTools } from "./resource-tools.js";
export type { ResultSpillOptions, SpilledResult, SpilledResultDetails } from "./result-spill.js";
export {
  DEFAULT_SPILL_PREVIEW_CHARS,
  DEFAULT_SPILL_THRESHOLD_CHARS,
  READ_RESULT_NAME,
  ResultSpill,
} from "./result-spill.js";
export { isValidServerName, SERVER_NAME_PATTERN } from "./server-name.js";
export type { ResultKeeper, SessionMCPToolOptions } from "./session-mcp-tool.js";
export { SessionMCPTool } from "./session-mcp-tool.js";
export type { ToolRegistry } from "./tool-registry.js";
export { createToolRegistry } from "./tool-registry.js";
export type { ToolMatch, ToolSearchAnswer, ToolSearchMode } from "./tool-search.js";
export { DEFAULT_TOOL_SEARCH, ToolSearch, toolSummary } from "./tool-search.js";
export type { ModelToolDefinition, ToolTokens } from "./tool-tokens.js";
export { countToolTokens, formatTokens, modelToolDefinition } from "./tool-tokens.js";
