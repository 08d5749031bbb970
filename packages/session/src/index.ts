// The session API (README "API").

export type { AgentSessionOptions, SessionReloadOptions } from "./agent-session.js";
export { AgentSession } from "./agent-session.js";
export type { CreateAgentSessionOptions, CreateAgentSessionResult } from "./create-agent-session.js";
export { createAgentSession, SESSION_MAX_STARTUP_WAIT_MS } from "./create-agent-session.js";
export type { NativeExa } from "./exa-rule.js";
export type { MCPCommandControllerOptions } from "./mcp-command-controller.js";
export { MCPCommandController } from "./mcp-command-controller.js";
export type { MCPCommandResult } from "./mcp-command-result.js";
export type { MCPServerList } from "./mcp-server-list.js";
export { notWaitedNote } from "./mcp-server-list.js";
export { DEFAULT_MAX_LOADED_TOOLS, ModelTools, TOOL_SEARCH_NAME } from "./model-tools.js";
export type { ConfigScope, NativeConfigWriter, NativeConfigWriterOptions } from "./native-config-writer.js";
export { createNativeConfigWriter } from "./native-config-writer.js";
export type { NativeReplacement } from "./native-tools.js";
export type { AttachedLine, ResourceAttachment } from "./resource-attachments.js";
export type { ResultSpillOptions } from "./result-spill.js";
export { SessionMCPTool } from "./session-mcp-tool.js";
export type { ToolRegistry } from "./tool-registry.js";
export { createToolRegistry } from "./tool-registry.js";
export { heldNotice, reviewText } from "./tool-review-text.js";
export type { ToolMatch, ToolSearchAnswer, ToolSearchMode } from "./tool-search.js";
export { DEFAULT_TOOL_SEARCH, ToolSearch, toolSummary } from "./tool-search.js";
export type { ModelToolDefinition, ToolTokens } from "./tool-tokens.js";
export { countToolTokens, formatTokens, modelToolDefinition } from "./tool-tokens.js";

// Re-exported: the names of lower packages an agent wires a session with (listed once, on purpose).

export type { ConfigFormat } from "@mcp-rt/config";
export { createNativeSource, readConfigFile } from "@mcp-rt/config";
export type {
  AuthStorage,
  CapabilitySource,
  CustomTool,
  DiscoveredServer,
  ElicitationHandler,
  LoadConfigsResult,
  Logger,
  MCPConfigChange,
  MCPElicitationCall,
  MCPElicitationField,
  MCPElicitationRequest,
  MCPElicitationResult,
  MCPElicitationSchema,
  MCPServerConfig,
  MCPServerState,
  MCPToolChangesPolicy,
  MCPToolReview,
  MCPToolsHeld,
  SourceMeta,
  ToolResult,
} from "@mcp-rt/manager";
export {
  builtinSources,
  checkElicitationContent,
  createAuthStorage,
  createCacheFromUrl,
  createTrustStore,
  loadAllMCPConfigs,
  MCPManager,
  MCPToolCache,
  McpRtError,
  openInBrowser,
  toLoadErrors,
} from "@mcp-rt/manager";
