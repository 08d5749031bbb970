import {
  callTool,
  closeConnection,
  connectToServer,
  listTools,
  type MCPProgress,
  type MCPServerConnection,
} from "@mcp-rt/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { textOf } from "./helpers.js";
import { checkNoPortsLeftAfterFile, type EverythingServer, startEverything } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

describe.each([
  { mode: "streamableHttp", type: "http" },
  { mode: "sse", type: "sse" },
] as const)("against server-everything over $type", ({ mode, type }) => {
  let server: EverythingServer;
  let connection: MCPServerConnection;

  beforeAll(async () => {
    server = await startEverything(mode);
    connection = await connectToServer({ name: "everything", config: { type, url: server.url } });
  });
  afterAll(async () => {
    if (connection) await closeConnection(connection);
    await server?.close();
  });

  it("connects, records the transport, and reports what the server said at initialize", () => {
    expect(connection.transport).toBe(type);
    expect(connection.serverInfo.name).toMatch(/everything/i);
    expect(connection.capabilities.tools).toBeDefined();
    expect(connection.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(connection.instructions).toBeTruthy();
    expect(connection.pid).toBeUndefined();
    expect(connection.stderrTail()).toBe("");
    expect(connection.closed).toBe(false);
  });

  it("lists the tools", async () => {
    const names = (await listTools(connection)).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["echo", "get-tiny-image", "trigger-long-running-operation"]),
    );
  });

  it("calls tools", async () => {
    expect(textOf(await callTool(connection, { name: "echo", args: { message: `over ${type}` } }))).toBe(
      `Echo: over ${type}`,
    );
    const result = await callTool(connection, {
      name: "get-structured-content",
      args: { location: "Chicago" },
    });
    expect(result.structuredContent).toMatchObject({ temperature: 36 });
  });

  it("delivers progress of a long-running call and keeps it alive past its timeout", async () => {
    const progress: MCPProgress[] = [];
    const result = await callTool(connection, {
      name: "trigger-long-running-operation",
      args: { duration: 2, steps: 5 },
      timeout: 1000,
      onProgress: (p) => progress.push(p),
    });
    expect(textOf(result)).toContain("Long running operation completed");
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

  it("times out a call without progress with REQUEST_TIMEOUT", async () => {
    const error = await callTool(connection, {
      name: "trigger-long-running-operation",
      args: { duration: 2, steps: 1 },
      timeout: 300,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "McpRtError", code: "REQUEST_TIMEOUT", server: "everything" });
  });
});

describe("a URL without type", () => {
  const servers: EverythingServer[] = [];
  const connections: MCPServerConnection[] = [];
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((connection) => closeConnection(connection)));
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it("uses Streamable HTTP when the server speaks it", async () => {
    const server = await startEverything("streamableHttp");
    servers.push(server);
    const connection = await connectToServer({ name: "everything", config: { url: server.url } });
    connections.push(connection);
    expect(connection.transport).toBe("http");
    expect(textOf(await callTool(connection, { name: "echo", args: { message: "hi" } }))).toBe("Echo: hi");
  });

  it("falls back to SSE for a server that only speaks SSE (its POST /sse is a 404)", async () => {
    const server = await startEverything("sse");
    servers.push(server);
    const connection = await connectToServer({ name: "everything", config: { url: server.url } });
    connections.push(connection);
    expect(connection.transport).toBe("sse");
    expect(textOf(await callTool(connection, { name: "echo", args: { message: "hi" } }))).toBe("Echo: hi");
  });
});

describe("closing a remote connection", () => {
  let server: EverythingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("ends a Streamable HTTP session with DELETE, idempotently; later calls fail with TRANSPORT_CLOSED", async () => {
    server = await startEverything("streamableHttp");
    const connection = await connectToServer({
      name: "everything",
      config: { type: "http", url: server.url },
    });
    const sessionId = /Session initialized with ID: (\S+)/.exec(server.log())?.[1];
    expect(sessionId).toBeTruthy();
    const closes: unknown[] = [];
    connection.onClose((event) => closes.push(event));

    const first = closeConnection(connection);
    expect(closeConnection(connection)).toBe(first);
    await first;
    // The server saw the DELETE for this very session before close resolved.
    expect(server.log()).toContain(`Received session termination request for session ${sessionId}`);
    expect(server.log().match(/Received session termination request/g)).toHaveLength(1);
    expect(closes).toEqual([{ expected: true, reason: 'MCP server "everything" was closed by the client' }]);
    await expect(callTool(connection, { name: "echo", args: { message: "x" } })).rejects.toMatchObject({
      code: "TRANSPORT_CLOSED",
      message: expect.stringContaining("closed by the client"),
    });
  });

  it("drops an SSE connection's stream, which the server notices", async () => {
    server = await startEverything("sse");
    const connection = await connectToServer({
      name: "everything",
      config: { type: "sse", url: server.url },
    });
    const sessionId = /Client Connected: {1,2}(\S+)/.exec(server.log())?.[1];
    expect(sessionId).toBeTruthy();
    await closeConnection(connection);
    await server.waitForLog(new RegExp(`Client Disconnected: {1,2}${sessionId}`), 5000);
    expect(connection.closed).toBe(true);
  });
});
