import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { MCPStdioServerConfig } from "@mcp-rt/config";
import { type FixtureOptions, type FixtureProbeAnswer, fixtureArgs } from "./fixture-options.js";

/**
 * Absolute path of the fixture server program (`dist/fixture-server.js`).
 * Resolved relative to this module, so it is the same whether this file is
 * loaded from `src/` (tests with an alias) or from `dist/`.
 */
export const fixtureServerPath: string = fileURLToPath(new URL("../dist/fixture-server.js", import.meta.url));

function assertBuilt(): void {
  if (!existsSync(fixtureServerPath)) {
    throw new Error(
      `The fixture server is not built: ${fixtureServerPath} is missing. Run "pnpm --filter @mcp-rt/testing build".`,
    );
  }
}

/**
 * A ready stdio config that runs the fixture server with `options`
 * (`command`: this Node binary, `args`: the script and its flags).
 *
 * @example
 * const config = fixtureServer({ initDelayMs: 500, tools: 20, pageSize: 5 });
 * const connection = await connectToServer({ name: "slow", config: { ...config, timeout: 2000 } });
 */
export function fixtureServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  assertBuilt();
  return { type: "stdio", command: process.execPath, args: [fixtureServerPath, ...fixtureArgs(options)] };
}

/** A fast, well-behaved server with one tool, `echo {message}`. */
export function echoServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer(options);
}

/** Answers `initialize` only after `delayMs`. */
export function slowInitServer(delayMs: number, options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, initDelayMs: delayMs });
}

/**
 * Spends `cpuMs` of CPU time at start before it reads anything, then serves
 * like {@link echoServer}: a server that loads much code. Beside other busy
 * processes its start takes longer on the clock, as a real one does.
 */
export function busyStartServer(cpuMs: number, options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, startCpuMs: cpuMs });
}

/**
 * Reads `initialize` and never answers, and writes nothing at all, to stdout
 * or stderr (a server waiting on the network, say); stays alive until killed
 * or stdin closes.
 */
export function silentServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, hangAtInit: true, quiet: true });
}

/** Starts, reads `initialize`, and never answers; stays alive until killed or stdin closes. */
export function hangingServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, hangAtInit: true });
}

/** Answers `initialize`, then exits with code 1 on `notifications/initialized`. */
export function crashAfterInitServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, crashAfterInit: true });
}

/** Has a `crash` tool whose call exits the process (code 1) before any answer. */
export function crashOnCallServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, crashOnCall: true });
}

/** Writes one line to stderr and exits with `code` at start, before any MCP traffic. */
export function exitServer(code: number, options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, exitCode: code });
}

/** Not an MCP server: writes non-JSON lines to stdout and never answers. */
export function garbageServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, garbageStdout: true });
}

/** `echo` plus `count` tools `tool_0` …, listed `options.pageSize` per page with `nextCursor`. */
export function manyToolsServer(count: number, options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, tools: count });
}

/** Has `add_tool {name}` / `remove_tool {name}`, which change the list and send `list_changed`. */
export function listChangingServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, listChanging: true });
}

/** Has `slow {ms, steps}`, which reports progress and honours `notifications/cancelled`. */
export function slowCallServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, slowTool: true });
}

/** Has `huge {bytes}`, which returns a text block of exactly `bytes` characters. */
export function hugeOutputServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, hugeTool: true });
}

/** Writes a 128 KiB burst, then a line every 5 ms, to stderr. A client that does not drain stderr stalls it. */
export function noisyStderrServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, noisyStderr: true });
}

/** Ignores SIGTERM and outlives stdin closing: only SIGKILL ends it. */
export function sigtermIgnoringServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, ignoreSigterm: true });
}

/**
 * Spawns a long-lived grandchild (same process group, stdio ignored) and records
 * `<pid> server` and `<pid> grandchild` in `pidFile` (read it with `readPidFileEntries`).
 */
export function grandchildServer(pidFile: string, options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, spawnGrandchild: true, pidFile });
}

/** Has resources, a template and a prompt, and `add_resource` / `add_prompt` tools that send list_changed. */
export function contentServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, content: true });
}

/** Speaks only MCP 2026-07-28 (`server/discover`, the `_meta` envelope); refuses `initialize` with -32022. */
export function modernServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, era: "modern" });
}

/**
 * Speaks both eras, pinning each process to the era of its first exchange that succeeds:
 * after a `server/discover` result, an `initialize` gets -32022; after `initialize`, it is a 2025 server.
 */
export function dualEraServer(options: FixtureOptions = {}): MCPStdioServerConfig {
  return fixtureServer({ ...options, era: "dual" });
}

/**
 * A 2025-era server that answers a `server/discover` sent before `initialize` as `probeAnswer`
 * says: -32601 (`method-not-found`), -32602 (`invalid-params`), not at all (`never`), or by
 * exiting with code 1 (`exit`).
 */
export function legacyServer(
  probeAnswer: FixtureProbeAnswer,
  options: FixtureOptions = {},
): MCPStdioServerConfig {
  return fixtureServer({ ...options, era: "legacy", probeAnswer });
}
