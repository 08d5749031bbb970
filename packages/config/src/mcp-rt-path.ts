import { homedir } from "node:os";
import { join } from "node:path";

/** The files mcp-rt keeps in a `.mcp-rt/` folder. */
export type McpRtFile = "mcp.json" | "trust.json" | "auth.json" | "cache-key" | "tool-approvals";

/**
 * Where mcp-rt keeps `file`: `<dir>/.mcp-rt/<file>`. `dir` is the user's home
 * folder by default (`~/.mcp-rt/trust.json`, `~/.mcp-rt/auth.json`, …) or a
 * project folder for its own `.mcp-rt/mcp.json`; pass the `homeDir` a caller
 * was given so that tests and sandboxes never touch the real home.
 *
 * @param dir the folder holding `.mcp-rt/`. @default os.homedir()
 * @example mcpRtPath("trust.json", options.homeDir) // "/home/me/.mcp-rt/trust.json"
 */
export function mcpRtPath(file: McpRtFile, dir: string = homedir()): string {
  return join(dir, ".mcp-rt", file);
}
