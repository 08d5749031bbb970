import {
  callTool,
  DEFAULT_MAX_MESSAGE_BYTES,
  type MCPConnectionCloseEvent,
  type MCPServerConnection,
} from "@mcp-rt/client";
import { McpRtError } from "@mcp-rt/config";
import { type HttpFixture, hugeOutputServer, startHttpFixture } from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createRemoteFetch } from "../src/remote/remote-fetch.js";
import { textOf, useConnections } from "./helpers.js";
import { checkNoPortsLeftAfterFile } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((server) => server.close()));
});
const { connect } = useConnections();

const TOO_LARGE = `a message larger than ${DEFAULT_MAX_MESSAGE_BYTES} bytes (limit maxMessageBytes)`;

function nextClose(connection: MCPServerConnection): Promise<MCPConnectionCloseEvent> {
  return new Promise((resolve) => connection.onClose(resolve));
}

async function callError(connection: MCPServerConnection, args: object): Promise<McpRtError> {
  const error = await callTool(connection, { name: "huge", args }).then(
    () => new Error("expected the call to fail"),
    (e: unknown) => e,
  );
  expect(McpRtError.isInstance(error)).toBe(true);
  return error as McpRtError;
}

describe("maxMessageBytes over stdio", () => {
  it("a message past the SDK's 10 MiB limit says it was too large, and which limit, not how the server exited", async () => {
    expect(DEFAULT_MAX_MESSAGE_BYTES).toBe(10 * 1024 * 1024);
    const connection = await connect({ name: "huge", config: hugeOutputServer() });
    const closed = nextClose(connection);
    const error = await callError(connection, { bytes: 11_000_000 });
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.message).toBe(
      `The call of tool "huge" to MCP server "huge" failed: it sent ${TOO_LARGE}, so mcp-rt closed the connection`,
    );
    const event = await closed;
    expect(event.reason).toBe(
      `MCP server "huge" stopped: it sent ${TOO_LARGE}, so mcp-rt closed the connection`,
    );
    expect(event.error).toMatchObject({ code: "LIMIT_EXCEEDED" });
    expect(event.reason).not.toMatch(/exited with code/);
  });

  it("takes a smaller limit as an option", async () => {
    const connection = await connect({ name: "small", config: hugeOutputServer(), maxMessageBytes: 100_000 });
    expect(textOf(await callTool(connection, { name: "huge", args: { bytes: 50_000 } }))).toHaveLength(
      50_000,
    );
    const error = await callError(connection, { bytes: 200_000 });
    expect(error.message).toContain("it sent a message larger than 100000 bytes (limit maxMessageBytes)");
  });
});

describe("maxMessageBytes over HTTP", () => {
  it("a 30 MB result fails its call with LIMIT_EXCEEDED; the connection stays up", async () => {
    const server = await startHttpFixture({ hugeTool: true });
    fixtures.push(server);
    const connection = await connect({ name: "remote", config: server.config });
    const error = await callError(connection, { bytes: 30_000_000 });
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.message).toBe(
      `The call of tool "huge" to MCP server "remote" failed: the server sent ${TOO_LARGE}; it was not read`,
    );
    expect(connection.closed).toBe(false);
    expect(textOf(await callTool(connection, { name: "huge", args: { bytes: 1000 } }))).toHaveLength(1000);
  });

  it("reads a body no further than the limit, however long it streams", async () => {
    const endless = (type: string) =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull: (controller) => controller.enqueue(new Uint8Array(64 * 1024).fill(0x61)),
        }),
        { headers: { "content-type": type } },
      );
    const url = new URL("http://127.0.0.1:9/mcp");
    const request = { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call" }) };
    for (const type of ["text/event-stream", "application/json"]) {
      const fetch = createRemoteFetch({ url, maxMessageBytes: 1_000_000, fetch: async () => endless(type) });
      const text = await (await fetch(url, request)).text();
      expect(text).toContain('"id":7');
      expect(text).toContain("the server sent a message larger than 1000000 bytes (limit maxMessageBytes)");
    }
  });

  it("passes events within the limit on whole, one by one", async () => {
    const events = ['data: {"a":1}\n\n', 'data: {"b":2}\r\n\r\n', `data: ${"x".repeat(50)}\n\n`];
    const bytes = new TextEncoder().encode(events.join(""));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.subarray(i, i + 7));
        controller.close();
      },
    });
    const url = new URL("http://127.0.0.1:9/mcp");
    const response = new Response(body, { headers: { "content-type": "text/event-stream" } });
    const fetch = createRemoteFetch({ url, maxMessageBytes: 40, fetch: async () => response });
    const request = { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "x" }) };
    const text = await (await fetch(url, request)).text();
    // The LF of the last CRLF may travel with the next event: the bytes stay in order either way.
    expect(text).toMatch(/^data: \{"a":1\}\n\ndata: \{"b":2\}\r\n\r\n?event: message\ndata: .*"id":1.*\n\n$/);
  });
});
