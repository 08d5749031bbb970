import { type FixtureOptions, fixtureServer } from "@mcp-rt/testing";
import type { StdioServer } from "./tasks.js";

/**
 * `count` stdio fixture servers from `@mcp-rt/testing`, named `s01`, `s02` …
 * Each has `echo` plus `options.tools` tools, and `env` when given (what a
 * real config sets: an API key, a log level).
 */
export function fixtureServers(
  count: number,
  options: FixtureOptions = {},
  env?: Record<string, string>,
): Record<string, StdioServer> {
  const width = String(count).length;
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => {
      const name = `s${String(i + 1).padStart(Math.max(2, width), "0")}`;
      const { command, args = [] } = fixtureServer({ ...options, name });
      return [name, { command, args, ...(env ? { env } : {}) }];
    }),
  );
}

/** Tools a fixture server lists: `echo` and `tools` more. */
export function toolsPerFixture(tools = 0): number {
  return tools + 1;
}
