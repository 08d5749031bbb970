// The client API (README "API").

export type { AuthContextInput } from "./auth-context.js";
export { authContextOf, localUser } from "./auth-context.js";
export type { CallToolOptions, MCPProgress } from "./call-tool.js";
export { callTool, checkStructuredContent, DEFAULT_TOOL_TIMEOUT_MS } from "./call-tool.js";
export type {
  ClientTransport,
  ProcessExit,
  RemoteClientTransport,
  StdioClientTransport,
} from "./client-transport.js";
export { DEFAULT_CONNECT_TIMEOUT_MS } from "./connect-timeout.js";
export type { ConnectOptions, ConnectToServerOptions } from "./connect-to-server.js";
export { connectToServer } from "./connect-to-server.js";
export type {
  MCPConnectionCloseEvent,
  MCPServerCapabilities,
  MCPServerConnection,
  MCPServerInfo,
} from "./connection.js";
export { MAX_INPUT_ROUNDS } from "./elicitation.js";
export type {
  ElicitationHandler,
  MCPElicitationCall,
  MCPElicitationField,
  MCPElicitationRequest,
  MCPElicitationResult,
  MCPElicitationSchema,
} from "./elicitation-form.js";
export { applyElicitationDefaults, checkElicitationContent } from "./elicitation-form.js";
export type { MCPEra, MCPEraDecision, MCPEraVerdict } from "./era.js";
export { describeEra } from "./era.js";
export type { MCPListCacheHint } from "./list-cache-hint.js";
export { isFreshHint, MAX_CACHE_TTL_MS } from "./list-cache-hint.js";
export type { ListContentOptions } from "./list-server-content.js";
export { listPrompts, listResources, listResourceTemplates } from "./list-server-content.js";
export type { ListToolsOptions, ToolDropNotice } from "./list-tools.js";
export { listTools, MAX_TOOL_PAGES } from "./list-tools.js";
export { DEFAULT_MAX_MESSAGE_BYTES } from "./message-limit.js";
export type { OAuthOptions } from "./oauth/oauth-options.js";
export { DEFAULT_SIGN_IN_TIMEOUT_MS } from "./oauth/oauth-options.js";
export type { OpenInBrowserOptions } from "./oauth/open-in-browser.js";
export { openInBrowser } from "./oauth/open-in-browser.js";
export type { StoredPrincipal } from "./oauth/principal.js";
export { readStoredPrincipal } from "./oauth/principal.js";
export type { SignInNeed } from "./oauth/sign-in-error.js";
export { isSignInRequired } from "./oauth/sign-in-error.js";
export type { SignInStatus } from "./oauth/sign-in-status.js";
export { readSignInStatus, signOut } from "./oauth/sign-in-status.js";
export type { PingOptions } from "./ping.js";
export { ping } from "./ping.js";
export type { HttpFailure } from "./remote/remote-fetch.js";
export type { RemoteTransportOptions } from "./remote/remote-transport.js";
export { createRemoteTransport, RemoteTransport } from "./remote/remote-transport.js";
export type {
  GetPromptOptions,
  MCPPromptResult,
  MCPResourceContents,
  ResourceRequestOptions,
} from "./resource-requests.js";
export { getPrompt, readResource, subscribeResource, unsubscribeResource } from "./resource-requests.js";
export { closeConnection } from "./server-connection.js";
export type { ServerRequestOptions } from "./server-request.js";
export type { ServerEnvOptions } from "./stdio/server-process.js";
export { createServerEnv, holdLaunches } from "./stdio/server-process.js";
export type { StdioTransportOptions } from "./stdio/stdio-transport.js";
export { createStdioTransport, ProcessGroupStdioTransport } from "./stdio/stdio-transport.js";
export type { ToolLimitBreach, ToolLimits } from "./tool-limits.js";
export { DEFAULT_TOOL_LIMITS } from "./tool-limits.js";

// Re-exported: the SDK's result type, and config's names a client user needs (README "API").

export type { SignInReason } from "@mcp-rt/config";
export { isSecretEnvName, SECRET_ENV_NAME_PATTERN } from "@mcp-rt/config";
export type { CallToolResult } from "@modelcontextprotocol/client";
