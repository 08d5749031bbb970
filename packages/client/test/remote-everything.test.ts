import { callTool, closeConnection, connectToServer, type MCPServerConnection } from "@mcp-rt/client";
import { afterEach, describe, expect, it } from "vitest";
import { textOf } from "./helpers.js";
import { checkNoPortsLeftAfterFile, type EverythingServer, startEverything } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

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
