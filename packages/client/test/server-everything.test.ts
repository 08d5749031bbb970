import { pathToFileURL } from "node:url";
import {
  callTool,
  closeConnection,
  connectToServer,
  listTools,
  type MCPServerConnection,
} from "@mcp-rt/client";
import type { McpRtError } from "@mcp-rt/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everythingServer as everything, textOf } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

describe("against @modelcontextprotocol/server-everything over stdio", () => {
  let connection: MCPServerConnection;

  beforeAll(async () => {
    connection = await connectToServer({ name: "everything", config: everything });
  });
  afterAll(async () => {
    await closeConnection(connection);
  });

  it("lists the tools, normalised to MCPToolDefinition", async () => {
    const tools = await listTools(connection);
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "echo",
        "get-tiny-image",
        "get-resource-links",
        "get-structured-content",
        "trigger-long-running-operation",
        "get-roots-list",
      ]),
    );
    const structured = tools.find((tool) => tool.name === "get-structured-content");
    expect(structured?.inputSchema).toMatchObject({ type: "object" });
    expect(structured?.outputSchema).toMatchObject({ type: "object" });
    expect(structured?.annotations?.readOnlyHint).toBe(true);
  });

  it("returns image content from get-tiny-image", async () => {
    const result = await callTool(connection, { name: "get-tiny-image", args: {} });
    const image = result.content.find((block) => block.type === "image");
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(
      Buffer.from((image as { data: string }).data, "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });

  it("returns resource links from get-resource-links", async () => {
    const result = await callTool(connection, { name: "get-resource-links", args: { count: 4 } });
    const links = result.content.filter((block) => block.type === "resource_link");
    expect(links).toHaveLength(4);
    expect(links[0]).toMatchObject({ type: "resource_link", uri: expect.stringMatching(/^demo:\/\//) });
  });

  it("returns structured content from get-structured-content", async () => {
    const result = await callTool(connection, {
      name: "get-structured-content",
      args: { location: "Chicago" },
    });
    expect(result.structuredContent).toEqual({
      temperature: 36,
      conditions: "Light rain / drizzle",
      humidity: 82,
    });
  });

  it("reports a tool's own failure as an isError result, not a rejection", async () => {
    const result = await callTool(connection, {
      name: "get-structured-content",
      args: { location: "Atlantis" },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/location|Invalid/i);
  });

  it("answers roots/list with the agent's cwd", async () => {
    const result = await callTool(connection, { name: "get-roots-list", args: {} });
    expect(textOf(result)).toContain(pathToFileURL(process.cwd()).href);
  });

  it("keeps a long-running call alive through progress even when nobody listens to it", async () => {
    // Progress is requested on every call, not only with onProgress: without it this call would time out.
    const result = await callTool(connection, {
      name: "trigger-long-running-operation",
      args: { duration: 2, steps: 5 },
      timeout: 1000,
    });
    expect(textOf(result)).toContain("Long running operation completed");
  });

  it("stops a long-running call at maxTotalTimeout despite progress", async () => {
    const error = await callTool(connection, {
      name: "trigger-long-running-operation",
      args: { duration: 3, steps: 10 },
      timeout: 2500,
      maxTotalTimeout: 800,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "McpRtError", code: "REQUEST_TIMEOUT", server: "everything" });
    expect((error as Error).message).toContain("maximum of 800 ms");
  });

  it("rejects at once when the signal is already aborted", async () => {
    const error = await callTool(connection, {
      name: "echo",
      args: { message: "x" },
      signal: AbortSignal.abort(),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AbortError" });
  });

  it("rejects arguments that are not an object with a clear TypeError", async () => {
    await expect(callTool(connection, { name: "echo", args: "hello" })).rejects.toThrow(
      'Arguments of tool "echo" on MCP server "everything" must be a JSON object, got string',
    );
  });

  it("returns the SDK server's isError result for an unknown tool", async () => {
    const result = await callTool(connection, { name: "no-such-tool", args: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Tool no-such-tool not found");
  });
});

describe("closing a server-everything connection", () => {
  it("is idempotent, stops the process, and later calls fail with TRANSPORT_CLOSED", async () => {
    const connection = await connectToServer({ name: "everything", config: everything });
    const pid = connection.pid!;
    const closes: unknown[] = [];
    connection.onClose((event) => closes.push(event));
    const first = closeConnection(connection);
    expect(closeConnection(connection)).toBe(first);
    await first;
    expect(() => process.kill(pid, 0)).toThrow();
    expect(connection.closed).toBe(true);
    expect(closes).toEqual([
      { expected: true, reason: 'MCP server "everything" was closed by the client', exit: expect.anything() },
    ]);
    const error = await callTool(connection, { name: "echo", args: { message: "x" } }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "TRANSPORT_CLOSED" });
    // What the server wrote on its way out after closeConnection explains nothing.
    expect((error as McpRtError).message).toBe(
      'Cannot send call of tool "echo" to MCP server "everything": the connection was closed by the client',
    );
    expect((error as McpRtError).stderrTail).toBeUndefined();
    await expect(listTools(connection)).rejects.toMatchObject({ code: "TRANSPORT_CLOSED" });
  });
});
