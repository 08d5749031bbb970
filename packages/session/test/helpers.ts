import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type Logger, type MCPConfigChange, MCPToolCache } from "@mcp-rt/manager";
import { childProcessesOf } from "@mcp-rt/testing";
import { expect } from "vitest";
import type { AgentSession } from "../src/agent-session.js";
import { type CreateAgentSessionOptions, createAgentSession } from "../src/create-agent-session.js";

/** A temporary home and project folder; nothing here touches the real `~`. */
export interface World {
  root: string;
  home: string;
  cwd: string;
  /** The environment sessions see: no real variables leak in. */
  env: Record<string, string | undefined>;
  /** One cache shared by the sessions of this world (a Map store). */
  cache: MCPToolCache;
  sessions: AgentSession[];
  logger: Logger & { lines: string[] };
  userFile: string;
  projectFile: string;
  write(path: string, value: unknown): Promise<void>;
  read(path: string): Promise<Record<string, unknown>>;
  start(options?: Partial<CreateAgentSessionOptions>): ReturnType<typeof createAgentSession>;
  cleanup(): Promise<void>;
}

export async function createWorld(): Promise<World> {
  const root = await mkdtemp(join(tmpdir(), "mcp-rt-session-"));
  const home = join(root, "home");
  const cwd = join(root, "project");
  await mkdir(home);
  await mkdir(cwd);
  const lines: string[] = [];
  const log =
    (level: string) =>
    (message: string): void => {
      lines.push(`${level}: ${message}`);
    };
  const world: World = {
    root,
    home,
    cwd,
    env: { HOME: home },
    cache: new MCPToolCache(new Map()),
    sessions: [],
    logger: { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error"), lines },
    userFile: join(home, ".mcp-rt", "mcp.json"),
    projectFile: join(cwd, ".mcp-rt", "mcp.json"),
    async write(path, value) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, typeof value === "string" ? value : JSON.stringify(value, null, 2));
    },
    async read(path) {
      return JSON.parse(await readFile(path, "utf8"));
    },
    async start(options = {}) {
      const result = await createAgentSession({
        cwd,
        logger: world.logger,
        refreshDebounceMs: 10,
        // Long results go to the world's folder, never the real temp folder.
        resultSpill: { dir: join(root, "results") },
        ...options,
        discovery: { homeDir: home, env: world.env, ...options.discovery },
        // A session waits 5 s for a server without a cache entry; on a loaded CI machine a
        // server can take longer to boot, and these tests want its tools at start.
        manager: { cache: world.cache, maxStartupWaitMs: 25_000, ...options.manager },
      });
      world.sessions.push(result.session);
      return result;
    },
    async cleanup() {
      await Promise.all(world.sessions.map((session) => session.dispose()));
      expect(childProcessesOf(process.pid)).toEqual([]);
      await rm(root, { recursive: true, force: true });
    },
  };
  return world;
}

/** The pid of a connected stdio server of a session. */
export async function pidOf(session: AgentSession, name: string): Promise<number> {
  const connection = await session.mcpManager!.waitForConnection(name);
  expect(connection.pid).toBeTypeOf("number");
  return connection.pid!;
}

/** Names of the active MCP tools of a session. */
export function activeMCPNames(session: AgentSession): string[] {
  const mcp = new Set(session.mcpTools().map((tool) => tool.name));
  return session.registry.active().filter((name) => mcp.has(name));
}

/** The next `config:changed` of the session's manager. */
export function nextChange(session: AgentSession): Promise<MCPConfigChange> {
  return new Promise((resolve) => {
    const off = session.mcpManager!.on("config:changed", (change) => {
      off();
      resolve(change);
    });
  });
}
