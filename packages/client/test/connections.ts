import { closeConnection, connectToServer, type MCPServerConnection } from "@mcp-rt/client";
import { McpRtError } from "@mcp-rt/config";
import { afterEach, expect } from "vitest";

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
