// The session API, and the config, cache and manager names an agent wires it with, so that this package is enough.

export type { ConfigFormat } from "@mcp-rt/config";
export { createNativeSource, readConfigFile } from "@mcp-rt/config";
export type {
  AuthStorage,
  CapabilitySource,
  CustomTool,
  DiscoveredServer,
  LoadConfigsOptions,
  LoadConfigsResult,
  LoadedCustomTool,
  Logger,
  MCPConfigChange,
  MCPLoadError,
  MCPLoadProblem,
  MCPLoadResult,
  MCPManagerOptions,
  MCPReloadResult,
  MCPServerConfig,
  MCPServerState,
  ProjectTrust,
  SignInStatus,
  SourceMeta,
  ToolResult,
} from "@mcp-rt/manager";
export {
  builtinSources,
  createAuthStorage,
  createCacheFromUrl,
  createFileStore,
  createTrustStore,
  loadAllMCPConfigs,
  MCPManager,
  MCPToolCache,
  McpRtError,
  toLoadErrors,
} from "@mcp-rt/manager";
export type { AgentSessionOptions, SessionReloadOptions } from "./agent-session.js";
export { AgentSession } from "./agent-session.js";
export type { CreateAgentSessionOptions, CreateAgentSessionResult } from "./create-agent-session.js";
export { createAgentSession, SESSION_MAX_STARTUP_WAIT_MS } from "./create-agent-session.js";
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
export type {
  ConfigScope,
  NativeConfigFile,
  NativeConfigWriter,
  NativeConfigWriterOptions,
} from "./native-config-writer.js";
export { createNativeConfigWriter } from "./native-config-writer.js";
export type { NativeExa } from "./native-exa.js";
export { isValidServerName, SERVER_NAME_PATTERN } from "./server-name.js";
export { SessionMCPTool } from "./session-mcp-tool.js";
export type { ToolRegistry } from "./tool-registry.js";
export { createToolRegistry } from "./tool-registry.js";
