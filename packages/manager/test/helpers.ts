import type { MCPToolCache, MCPToolCacheEntry } from "@mcp-rt/cache";
import { authContextOf, localUser } from "@mcp-rt/client/light";
import type { Logger, MCPServerConfig } from "@mcp-rt/config";
import { childProcessesOf } from "@mcp-rt/testing";
import { afterEach, describe, expect } from "vitest";
import {
  MCPManager,
  type MCPManagerEvents,
  type MCPManagerOptions,
  type MCPStartupMode,
} from "../src/index.js";

/**
 * Makes managers for the tests of one file (in `cwd`, by default
 * `process.cwd()`; cache off unless given) and, after each test, disconnects
 * them all and checks that no child process outlived it.
 */
export function useManagers(): (options?: MCPManagerOptions, cwd?: string) => MCPManager {
  const managers: MCPManager[] = [];
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((manager) => manager.disconnectAll()));
    expect(childProcessesOf(process.pid)).toEqual([]);
  });
  return (options = {}, cwd = process.cwd()) => {
    const manager = new MCPManager(cwd, { cache: null, ...options });
    managers.push(manager);
    return manager;
  };
}

/** A manager in one startup mode, closed after each test (see {@link useManagers}). */
export type ManagerInMode = (options?: MCPManagerOptions) => MCPManager;

/**
 * The startup gate's tests, which hold in both startup modes: `describe.each`
 * over `"gate"` and `"cache-first"`, each with managers made in that mode.
 */
export function describeStartupModes(title: string, body: (manager: ManagerInMode) => void): void {
  const managers = useManagers();
  const modes: MCPStartupMode[] = ["gate", "cache-first"];
  describe.each(modes)(`%s: ${title}`, (startupMode) => {
    body((options = {}) => managers({ startupMode, ...options }));
  });
}

/** A logger that keeps what it is told, by level. */
export function recordingLogger(): Logger & { lines: Array<{ level: string; message: string }> } {
  const lines: Array<{ level: string; message: string }> = [];
  const at =
    (level: string) =>
    (message: string): void => {
      lines.push({ level, message });
    };
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** The events about one server (their payload has its `name`). */
type ServerEvent = Exclude<keyof MCPManagerEvents, "config:changed">;

/** Records every server event of a manager as `"<event> <name>"`. */
export function recordEvents(manager: MCPManager): string[] {
  const seen: string[] = [];
  const events: ServerEvent[] = [
    "server:connecting",
    "server:connected",
    "server:failed",
    "server:disconnected",
    "server:reconnecting",
    "server:needs-auth",
    "tools:changed",
  ];
  for (const event of events) manager.on(event, (payload) => seen.push(`${event} ${payload.name}`));
  return seen;
}

/** Resolves with the next payload of `event` for server `name`. */
export function nextEvent<E extends ServerEvent>(
  manager: MCPManager,
  event: E,
  name: string,
): Promise<MCPManagerEvents[E]> {
  return new Promise((resolve) => {
    const off = manager.on(event, (payload) => {
      if (payload.name !== name) return;
      off();
      resolve(payload);
    });
  });
}

/** The text of a tool result's blocks, joined. */
export function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => block.text ?? `[${block.type}]`).join("\n");
}

/** The echo tool as the fixture servers list it, for cache entries written by hand. */
export const echoDefinition = {
  name: "echo",
  description: "Returns `message` unchanged.",
  inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
};

/**
 * The cache entry a manager of this process (default `user`) reads for a
 * server whose config has no values to resolve: its private lists are kept
 * under that context.
 */
export async function entryAsManager(
  cache: MCPToolCache,
  server: { serverName: string; config: MCPServerConfig; cwd?: string },
): Promise<MCPToolCacheEntry | null> {
  return (await cache.read(server, { authContext: contextAsManager(server.config) })).entry;
}

/** The auth context a manager of this process (default `user`) starts `config` as, when it has no values to resolve. */
export function contextAsManager(config: MCPServerConfig): string {
  return authContextOf({ user: localUser(), written: config, resolved: config });
}
