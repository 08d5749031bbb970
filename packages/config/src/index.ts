export type { McpRtErrorCode, McpRtErrorOptions } from "./errors.js";
export { McpRtError } from "./errors.js";
export { hashProjectServers } from "./project-trust-hash.js";
export { REDACTED, redactServerConfig, redactUrl } from "./redact.js";
export type { ResolveServerConfigOptions } from "./resolve-server-config.js";
export { resolveServerConfig } from "./resolve-server-config.js";
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
export { createTrustStore, defaultTrustStorePath, resolveProjectDir } from "./trust-store.js";
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
