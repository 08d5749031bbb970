export { appConfigDir } from "./app-config-dir.js";
export { createFileAuthStorage } from "./file-auth-storage.js";
export type { InterpolationSyntax } from "./interpolate.js";
export { interpolateServerConfig, interpolateString } from "./interpolate.js";
export { builtinSources, loadAllMCPConfigs } from "./load-all-mcp-configs.js";
export type { McpRtFile } from "./mcp-rt-path.js";
export { mcpRtPath } from "./mcp-rt-path.js";
export { createMemoryAuthStorage } from "./memory-auth-storage.js";
export type { AuthStorage } from "./model/auth-storage.js";
export type { ConfigIssue } from "./model/config-issue.js";
export type {
  ConnectTryFacts,
  HttpAnswerFacts,
  McpRtErrorDetails,
  NetworkFacts,
  ProcessExitFacts,
  RpcFacts,
  SignInFacts,
  SignInFailureKind,
  SignInReason,
} from "./model/error-details.js";
export type { McpRtErrorCode, McpRtErrorOptions } from "./model/errors.js";
export { McpRtError } from "./model/errors.js";
export type { Logger } from "./model/logger.js";
export type { MCPPromptArgument, MCPPromptDefinition } from "./model/prompt-definition.js";
export { MCPPromptDefinitionSchema } from "./model/prompt-definition.js";
export type { MCPResourceDefinition, MCPResourceTemplateDefinition } from "./model/resource-definition.js";
export {
  MCPResourceDefinitionSchema,
  MCPResourceTemplateDefinitionSchema,
} from "./model/resource-definition.js";
export type {
  MCPAuthConfig,
  MCPHttpServerConfig,
  MCPPoisoningPolicy,
  MCPProtocolSetting,
  MCPServerCommon,
  MCPServerConfig,
  MCPStdioServerConfig,
  MCPToolChangesPolicy,
} from "./model/server-config.js";
export {
  isStdioConfig,
  MCPServerConfigSchema,
  POISONING_POLICIES,
  TOOL_CHANGES_POLICIES,
} from "./model/server-config.js";
export type { SourceMeta } from "./model/source-meta.js";
export type { MCPToolDefinition, ToolAnnotations } from "./model/tool-definition.js";
export { MCPToolDefinitionSchema, toolMetaOf } from "./model/tool-definition.js";
export type { PolicyId } from "./policy/server-policy.js";
export { hashProjectServers } from "./project-trust.js";
export type { ConfigFormat } from "./read-config-file.js";
export { readConfigFile } from "./read-config-file.js";
export type { RedactConfigTextOptions, RedactOptions } from "./redact.js";
export { redactConfigText, redactServerConfig } from "./redact.js";
export { redactText, redactUrl } from "./redact-text.js";
export type { ResolveServerConfigOptions } from "./resolve-server-config.js";
export { hasRuntimeValues, resolveServerConfig } from "./resolve-server-config.js";
export { isSecretEnvName, SECRET_ENV_NAME_PATTERN } from "./secret-env-name.js";
export { createAntigravitySource } from "./sources/antigravity.js";
export { createClaudeCodeSource } from "./sources/claude-code.js";
export { createClaudeDesktopSource } from "./sources/claude-desktop.js";
export { createCodexSource } from "./sources/codex.js";
export { createCursorSource } from "./sources/cursor.js";
export { createGeminiSource } from "./sources/gemini.js";
export { createNativeSource } from "./sources/native.js";
export { createVsCodeSource } from "./sources/vscode.js";
export { createWindsurfSource } from "./sources/windsurf.js";
export { createTrustStore } from "./trust-store.js";
export type {
  BlockedServer,
  CapabilitySource,
  DiscoveredServer,
  DiscoveryContext,
  LoadConfigsOptions,
  LoadConfigsResult,
  ProjectTrust,
  ReserveServer,
} from "./types.js";
export { validateServerConfig } from "./validate-server-config.js";
