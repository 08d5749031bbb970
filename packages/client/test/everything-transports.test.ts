import {
  callTool,
  closeConnection,
  connectToServer,
  listTools,
  type MCPProgress,
  type MCPServerConnection,
} from "@mcp-rt/client";
import type { MCPServerConfig } from "@mcp-rt/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everythingServer, textOf } from "./helpers.js";
import { checkNoPortsLeftAfterFile, startEverything } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

/** server-everything reached one way: its config, and how to stop what was started for it. */
interface Reached {
  config: MCPServerConfig;
  close(): Promise<void>;
}

const remote = (mode: "streamableHttp" | "sse", type: "http" | "sse") => async (): Promise<Reached> => {
  const server = await startEverything(mode);
  return { config: { type, url: server.url }, close: () => server.close() };
};

describe.each([
  {
    type: "stdio",
    reach: async (): Promise<Reached> => ({ config: everythingServer, close: async () => {} }),
  },
  { type: "http", reach: remote("streamableHttp", "http") },
  { type: "sse", reach: remote("sse", "sse") },
] as const)("against server-everything over $type", ({ type, reach }) => {
  let reached: Reached | undefined;
  let connection: MCPServerConnection;

  beforeAll(async () => {
    reached = await reach();
    connection = await connectToServer({ name: "everything", config: reached.config });
  });
  afterAll(async () => {
    if (connection) await closeConnection(connection);
    await reached?.close();
  });

  it("connects, records the transport, and reports what the server said at initialize", () => {
    expect(connection.name).toBe("everything");
    expect(connection.transport).toBe(type);
    expect(connection.serverInfo.name).toMatch(/everything/i);
    expect(connection.capabilities.tools).toBeDefined();
    expect(connection.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(connection.instructions).toBeTruthy();
    expect(connection.closed).toBe(false);
    if (type === "stdio") {
      expect(connection.pid).toBeGreaterThan(0);
      expect(connection.stderrTail()).toContain("Starting default (STDIO) server");
    } else {
      expect(connection.pid).toBeUndefined();
      expect(connection.stderrTail()).toBe("");
    }
  });

  it("lists the tools", async () => {
    const names = (await listTools(connection)).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["echo", "get-tiny-image", "trigger-long-running-operation"]),
    );
  });

  it("calls tools", async () => {
    const echo = await callTool(connection, { name: "echo", args: { message: `over ${type}` } });
    expect(echo.isError).toBeFalsy();
    expect(textOf(echo)).toBe(`Echo: over ${type}`);
    const result = await callTool(connection, {
      name: "get-structured-content",
      args: { location: "Chicago" },
    });
    expect(result.structuredContent).toMatchObject({ temperature: 36 });
  });

  it("delivers progress of a long-running call and keeps it alive past its timeout", async () => {
    const progress: MCPProgress[] = [];
    // 2 s of work with a 1 s timeout: only the progress notifications (every 400 ms) keep it going.
    const result = await callTool(connection, {
      name: "trigger-long-running-operation",
      args: { duration: 2, steps: 5 },
      timeout: 1000,
      onProgress: (p) => progress.push(p),
    });
    expect(textOf(result)).toContain("Long running operation completed");
    // The last notification may arrive together with the result, after the call has settled.
    expect(progress.map((p) => p.progress).slice(0, 4)).toEqual([1, 2, 3, 4]);
    expect(progress.every((p) => p.total === 5)).toBe(true);
  });

  it("rejects an aborted call with an AbortError mid-call and stays usable", async () => {
    const controller = new AbortController();
    const progress: MCPProgress[] = [];
    const started = Date.now();
    const error = await callTool(connection, {
      name: "trigger-long-running-operation",
      args: { duration: 10, steps: 20 },
      signal: controller.signal,
      onProgress: (p) => {
        progress.push(p);
        controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect(error).toMatchObject({ name: "AbortError" });
    expect(progress).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(textOf(await callTool(connection, { name: "echo", args: { message: "still here" } }))).toBe(
      "Echo: still here",
    );
  });

  it("times out a call without progress with REQUEST_TIMEOUT naming toolTimeout", async () => {
    const started = Date.now();
    const error = await callTool(connection, {
      name: "trigger-long-running-operation",
      args: { duration: 2, steps: 1 },
      timeout: 300,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "McpRtError", code: "REQUEST_TIMEOUT", server: "everything" });
    expect((error as Error).message).toBe(
      `The call of tool "trigger-long-running-operation" to MCP server "everything" timed out after 300 ms (raise "toolTimeout" in the server's config)`,
    );
    expect(Date.now() - started).toBeLessThan(1900);
  });
});
