import type { Logger } from "@mcp-rt/session";
import type { Output } from "./output.js";

function detail(data: unknown): string {
  if (data === undefined) return "";
  if (data instanceof Error) return `: ${data.message}`;
  return typeof data === "string" ? `: ${data}` : "";
}

/**
 * The logger the agent gives the manager and the session: warnings and errors
 * (a server failing after startup, a dropped connection, a cache that cannot
 * be written) become `notice` lines; debug and info only with `MCP_RT_DEBUG=1`.
 */
export function createAgentLogger(
  output: Output,
  env: Record<string, string | undefined> = process.env,
): Logger {
  const debug = env.MCP_RT_DEBUG === "1" || env.MCP_RT_DEBUG === "true";
  const note = (level: string, glyph: string) => (message: string, data?: unknown) =>
    output.write("notice", `${glyph} ${message}${detail(data)}`, { level });
  return {
    debug: debug ? note("debug", "·") : () => {},
    info: debug ? note("info", "·") : () => {},
    warn: note("warn", "⚠"),
    error: note("error", "✗"),
  };
}
