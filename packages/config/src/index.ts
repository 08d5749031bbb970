export type { McpRtErrorCode, McpRtErrorOptions } from "./errors.js";
export { McpRtError } from "./errors.js";
export type {
  ConfigIssue,
  MCPAuthConfig,
  MCPHttpServerConfig,
  MCPServerCommon,
  MCPServerConfig,
  MCPStdioServerConfig,
  MCPToolDefinition,
  SourceMeta,
  ToolAnnotations,
} from "./server-config.js";
export {
  isStdioConfig,
  MCPAuthConfigSchema,
  MCPHttpServerConfigSchema,
  MCPServerConfigSchema,
  MCPStdioServerConfigSchema,
  MCPToolDefinitionSchema,
  SourceMetaSchema,
} from "./server-config.js";
export type {
  AuthStorage,
  CapabilitySource,
  DiscoveredServer,
  DiscoveryContext,
  LoadConfigsOptions,
  LoadConfigsResult,
  Logger,
  ProjectTrust,
} from "./types.js";
