import { McpRtError } from "@mcp-rt/manager";

/** What a server name added or edited through mcp-rt may look like. */
export const SERVER_NAME_PATTERN: RegExp = /^[a-zA-Z0-9_.-]{1,100}$/;

/** True when `name` is a valid server name for `/mcp` commands and the native file. */
export function isValidServerName(name: string): boolean {
  return SERVER_NAME_PATTERN.test(name);
}

/** Throws `CONFIG_INVALID` naming the rule when `name` is not a valid server name. */
export function assertServerName(name: string): void {
  if (!isValidServerName(name)) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `"${name}" is not a valid server name: use 1–100 letters, digits, "_", "." or "-".`,
      { server: name },
    );
  }
}
