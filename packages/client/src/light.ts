// What a start path needs before it connects anything, without loading the MCP SDK (README "API").

export type { AuthContextInput } from "./auth-context.js";
export { authContextOf, localUser } from "./auth-context.js";
export { DEFAULT_CONNECT_TIMEOUT_MS } from "./connect-timeout.js";
export type {
  ElicitationHandler,
  MCPElicitationCall,
  MCPElicitationField,
  MCPElicitationRequest,
  MCPElicitationResult,
  MCPElicitationSchema,
} from "./elicitation-form.js";
export { applyElicitationDefaults, checkElicitationContent } from "./elicitation-form.js";
export { describeEra } from "./era.js";
export { DEFAULT_MAX_MESSAGE_BYTES } from "./max-message-bytes.js";
export { openInBrowser } from "./oauth/open-in-browser.js";
export type { StoredPrincipal } from "./oauth/principal.js";
export { readStoredPrincipal } from "./oauth/principal.js";
export { isSignInRequired } from "./oauth/sign-in-error.js";
export { createServerEnv, holdLaunches } from "./stdio/server-process.js";
export type { ToolLimitBreach, ToolLimits } from "./tool-limits.js";
export { DEFAULT_TOOL_LIMITS } from "./tool-limits.js";

// Re-exported: config's names of a server's environment.

export { isSecretEnvName, SECRET_ENV_NAME_PATTERN } from "@mcp-rt/config";
