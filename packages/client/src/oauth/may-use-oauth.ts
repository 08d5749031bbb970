import { isStdioConfig, type MCPHttpServerConfig, type MCPServerConfig } from "@mcp-rt/config";

/**
 * True for a server OAuth may serve: a remote one with `auth: { type:
 * "oauth" }`, or with no `auth` and no `Authorization` header of the user's
 * own (credentials in the headers are theirs to manage).
 */
export function mayUseOAuth(config: MCPServerConfig): config is MCPHttpServerConfig {
  if (isStdioConfig(config)) return false;
  const auth = config.auth;
  if (auth?.type === "apikey") return false;
  if (auth !== undefined) return true;
  return !Object.keys(config.headers ?? {}).some((header) => header.toLowerCase() === "authorization");
}
