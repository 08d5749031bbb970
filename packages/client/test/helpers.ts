import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import {
  type CallToolResult,
  closeConnection,
  connectToServer,
  type MCPServerConnection,
} from "@mcp-rt/client";
import { type MCPStdioServerConfig, McpRtError } from "@mcp-rt/config";
import { afterEach, expect } from "vitest";

export { useTempDir } from "../../../test-support/temp-dir.js";

/** The folder of the installed `@modelcontextprotocol/server-everything` (a devDependency). */
export const everythingDir: string = dirname(
  createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json"),
);

/** server-everything's entry point; `node <entry> streamableHttp|sse` serves it over HTTP. */
export const everythingEntry: string = join(everythingDir, "dist/index.js");

/** server-everything over stdio, run by this Node (no `npx`, so no network). */
export const everythingServer: MCPStdioServerConfig = { command: process.execPath, args: [everythingEntry] };

// This package's folder, from which its devDependency `@modelcontextprotocol/server` resolves, for inline servers.
const sdkHome = fileURLToPath(new URL("..", import.meta.url));

/** A stdio server whose ES module source is `lines`, able to import the SDK's server side. */
export function inlineServer(lines: string[]): MCPStdioServerConfig {
  return { command: process.execPath, args: ["--input-type=module", "-e", lines.join("\n")], cwd: sdkHome };
}

/** The text blocks of a tool result, one per line. */
export function textOf(result: CallToolResult): string {
  return result.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

/** Resolves once `condition()` holds; rejects after `ms`. */
export async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(10);
  }
}

/** Connect helpers for one test file; whatever they open is closed after each test. */
export interface TestConnections {
  /** `connectToServer`, with the connection closed after the test. */
  connect(...args: Parameters<typeof connectToServer>): Promise<MCPServerConnection>;
  /**
   * `connectToServer` that must fail: resolves with its `McpRtError`. A
   * connection made instead fails the test (and is closed after it).
   */
  connectError(...args: Parameters<typeof connectToServer>): Promise<McpRtError>;
}

/**
 * Registers an `afterEach` that closes every connection the returned helpers
 * opened. Vitest runs after-hooks last-registered first: call this after the
 * hooks that stop servers, so that connections close before their servers.
 */
export function useConnections(): TestConnections {
  const open: MCPServerConnection[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((connection) => closeConnection(connection)));
  });
  return {
    async connect(...args) {
      const connection = await connectToServer(...args);
      open.push(connection);
      return connection;
    },
    async connectError(...args) {
      const error = await connectToServer(...args).then(
        (connection) => {
          open.push(connection);
          throw new Error(`expected a failure, got a connection over ${connection.transport}`);
        },
        (e: unknown) => e,
      );
      expect(McpRtError.isInstance(error)).toBe(true);
      return error as McpRtError;
    },
  };
}
