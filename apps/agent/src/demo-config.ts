import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CapabilitySource, DiscoveredServer, MCPServerConfig } from "@mcp-rt/session";
import { slowInitServer } from "@mcp-rt/testing/fixtures";

/** How long the demo's slow server takes to answer `initialize`: well past the 250 ms gate. */
export const DEMO_SLOW_INIT_MS = 1500;

const require = createRequire(import.meta.url);

const programs = new Map<string, string>();

/** The program of an MCP server package installed with this app (they ship no `exports`, only a bin). */
function serverProgram(pkg: string): string {
  let program = programs.get(pkg);
  if (program === undefined) {
    // Resolved once: every discovery (startup reads the demo source twice, a reload again) asks.
    program = join(dirname(require.resolve(`${pkg}/package.json`)), "dist", "index.js");
    programs.set(pkg, program);
  }
  return program;
}

/**
 * The knowledge-graph file of the demo memory server: one per user in the
 * system's temp folder, so what it remembers survives a restart of the agent
 * (and its config, hence its cache key, stays the same) yet never lands in a project.
 */
export function demoMemoryFile(): string {
  // Per user: Windows' temp folder already is, POSIX /tmp is shared.
  const user = process.getuid?.() ?? "user";
  const folder = join(tmpdir(), `mcp-rt-agent-${user}`);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return join(folder, "memory.jsonl");
}

/**
 * The embedded demo: real MCP servers installed as dependencies of this app,
 * each run with this Node binary (no npx, no network), plus one deliberately
 * slow fixture so the startup gate and deferred tools can be seen.
 */
export function demoServers(cwd: string): Record<string, MCPServerConfig> {
  const node = process.execPath;
  return {
    everything: {
      type: "stdio",
      command: node,
      args: [serverProgram("@modelcontextprotocol/server-everything"), "stdio"],
    },
    filesystem: {
      type: "stdio",
      command: node,
      args: [serverProgram("@modelcontextprotocol/server-filesystem"), cwd],
    },
    memory: {
      type: "stdio",
      command: node,
      args: [serverProgram("@modelcontextprotocol/server-memory")],
      env: { MEMORY_FILE_PATH: demoMemoryFile() },
    },
    slow: { ...slowInitServer(DEMO_SLOW_INIT_MS, { name: "mcp-rt-slow-demo", tools: 2 }) },
  };
}

/** Where `/mcp list` says the demo servers are defined: this module's own file. */
export const DEMO_CONFIG_PATH: string = fileURLToPath(import.meta.url);

/**
 * A config source (the same seam as Cursor's or Claude's files) that yields the
 * demo servers, at the lowest priority, as user-level entries: they are this
 * app's own, so they need no project approval, and `/mcp disable <name>` turns
 * one off through the native file like any other server.
 */
export function createDemoSource(): CapabilitySource {
  const meta = {
    provider: "demo",
    providerName: "Embedded demo",
    path: DEMO_CONFIG_PATH,
    level: "user",
  } as const;
  return {
    id: meta.provider,
    name: meta.providerName,
    priority: 0,
    async load(ctx) {
      const servers: DiscoveredServer[] = Object.entries(demoServers(ctx.cwd)).map(([name, config]) => ({
        name,
        config,
        source: { ...meta },
      }));
      return { servers, issues: [] };
    },
  };
}
