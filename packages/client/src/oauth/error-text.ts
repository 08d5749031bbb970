import { errorMessage } from "@mcp-rt/config/util";

// The rest of the client's `inConfig` and `errorText` (../error-text.ts), said again here because
// oauth/ imports nothing from the rest of the client; test/oauth-boundary.test.ts keeps them in step.

/** Where a user fixes a setting: the config file when known. */
export function inConfig(sourcePath: string | undefined): string {
  return sourcePath ? `in ${sourcePath}` : "in the server's config";
}

/** First line of an error's message, without "MCP error -32603: " prefixes. */
export function errorText(error: unknown): string {
  const message = errorMessage(error);
  // Servers on the v1 SDK relay their own errors with the prefix, sometimes twice.
  return message.replace(/^(MCP error -?\d+: )+/, "").split("\n")[0] ?? message;
}
