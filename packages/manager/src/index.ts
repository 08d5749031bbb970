// The manager API, and the config, client and cache API re-exported so that installing this package is enough.

export type {
  CachedServerInfo,
  CacheFromUrlOptions,
  FileStore,
  MCPToolCacheEntry,
  MCPToolCacheOptions,
  MCPToolCacheSetOptions,
  RedisStoreOptions,
  ToolCacheStore,
} from "@mcp-rt/cache";
export {
  CACHE_FORMAT_VERSION,
  CachedServerInfoSchema,
  createCacheFromUrl,
  createFileStore,
  defaultCacheDir,
  MCPToolCache,
  MCPToolCacheEntrySchema,
  toolCacheFingerprint,
} from "@mcp-rt/cache";
export type {
  CallToolOptions,
  CallToolResult,
  ClientTransport,
  ConnectOptions,
  HttpFailure,
  ListToolsOptions,
  MCPConnectionCloseEvent,
  MCPProgress,
  MCPServerCapabilities,
  MCPServerConnection,
  MCPServerInfo,
  PingOptions,
  ProcessExit,
  RemoteTransportOptions,
  ServerEnvOptions,
  StdioTransportOptions,
} from "@mcp-rt/client";
export {
  callTool,
  closeConnection,
  connectToServer,
  createRemoteTransport,
  createServerEnv,
  createStdioTransport,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  holdLaunches,
  isSecretEnvName,
  listTools,
  MAX_TOOL_PAGES,
  ProcessGroupStdioTransport,
  ping,
  RemoteTransport,
  SECRET_ENV_NAME_PATTERN,
} from "@mcp-rt/client";
export type {
  AuthStorage,
  CapabilitySource,
  CapabilitySourceResult,
  ConfigFormat,
  ConfigIssue,
  DiscoveredServer,
  DiscoveryContext,
  EntryInterpolation,
  InterpolatedConfig,
  InterpolatedString,
  InterpolationOptions,
  InterpolationSyntax,
  LoadConfigsOptions,
  LoadConfigsResult,
  Logger,
  MCPAuthConfig,
  MCPHttpServerConfig,
  MCPServerCommon,
  MCPServerConfig,
  MCPStdioServerConfig,
  MCPToolDefinition,
  McpRtErrorCode,
  McpRtErrorOptions,
  MissingInput,
  MissingVariable,
  ProjectTrust,
  ProjectTrustQuestion,
  ReadConfigFileResult,
  ReserveServer,
  ResolveServerConfigOptions,
  SourceMeta,
  ToolAnnotations,
  TrustHashEntry,
} from "@mcp-rt/config";
export {
  appConfigDir,
  builtinSources,
  createClaudeCodeSource,
  createClaudeDesktopSource,
  createCodexSource,
  createCursorSource,
  createGeminiSource,
  createNativeSource,
  createTrustStore,
  createVsCodeSource,
  createWindsurfSource,
  defaultTrustStorePath,
  hashProjectServers,
  interpolateServerConfig,
  interpolateString,
  isStdioConfig,
  loadAllMCPConfigs,
  MCPAuthConfigSchema,
  MCPHttpServerConfigSchema,
  MCPServerConfigSchema,
  MCPStdioServerConfigSchema,
  MCPToolDefinitionSchema,
  McpRtError,
  REDACTED,
  readConfigFile,
  redactServerConfig,
  redactUrl,
  resolveProjectDir,
  resolveServerConfig,
  SourceMetaSchema,
  validateServerConfig,
} from "@mcp-rt/config";
export { DEFAULT_SERVER_TIMEOUT_MS } from "./connect-and-list.js";
export type {
  CustomTool,
  LoadedCustomTool,
  ToolResult,
  ToolResultContent,
  ToolResultDetails,
} from "./custom-tool.js";
export { DeferredMCPTool } from "./deferred-mcp-tool.js";
export type {
  ConnectAndReportResult,
  DiscoverAndLoadOptions,
  DiscoverAndLoadResult,
  MCPLoadError,
} from "./discover-and-load.js";
export { connectAndReport, discoverAndLoadMCPTools, discoverMCPServers } from "./discover-and-load.js";
export type {
  DiscoverAndConnectOptions,
  MCPConnectionStatus,
  MCPLoadResult,
  MCPManagerEvents,
  MCPManagerOptions,
  MCPServerState,
} from "./manager-types.js";
export { MCPManager, STARTUP_TIMEOUT_MS } from "./mcp-manager.js";
export type { LiveServer, MCPToolHost, MCPToolOptions } from "./mcp-tool.js";
export { MCPTool } from "./mcp-tool.js";
export type { ReconnectOptions } from "./reconnect-policy.js";
export { DEFAULT_RECONNECT_OPTIONS } from "./reconnect-policy.js";
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
