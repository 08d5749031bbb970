import { setTimeout as sleep } from "node:timers/promises";
import { callTool, listTools } from "@mcp-rt/client";
import type { McpRtError } from "@mcp-rt/config";
import { fixtureServer, listChangingServer, manyToolsServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { inlineServer, useConnections } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const { connect } = useConnections();

describe("listTools", () => {
  it("follows nextCursor through every page, in order", async () => {
    const connection = await connect({ name: "many", config: manyToolsServer(250, { pageSize: 7 }) });
    const tools = await listTools(connection);
    expect(tools).toHaveLength(251);
    expect(tools.map((tool) => tool.name)).toEqual([
      "echo",
      ...Array.from({ length: 250 }, (_, i) => `tool_${i}`),
    ]);
    expect(tools[1]).toMatchObject({ name: "tool_0", inputSchema: { type: "object" } });
  });

  it("stops on a repeated cursor with PROTOCOL_ERROR instead of looping", async () => {
    const connection = await connect({
      name: "loop",
      config: fixtureServer({ tools: 10, pageSize: 2, cursorLoop: true }),
    });
    const error = (await listTools(connection).catch((e: unknown) => e)) as McpRtError;
    expect(error).toMatchObject({ name: "McpRtError", code: "PROTOCOL_ERROR", server: "loop" });
    expect(error.message).toBe(
      'MCP server "loop" repeated the tools/list cursor "loop" on page 2; stopped instead of looping',
    );
  });

  it("stops after 1000 pages with PROTOCOL_ERROR", async () => {
    const connection = await connect({ name: "endless", config: manyToolsServer(1000, { pageSize: 1 }) });
    const error = (await listTools(connection).catch((e: unknown) => e)) as McpRtError;
    expect(error).toMatchObject({ code: "PROTOCOL_ERROR" });
    expect(error.message).toContain("more than 1000 pages");
  });

  it("returns [] for a server without the tools capability", async () => {
    const connection = await connect({
      name: "prompts-only",
      config: inlineServer([
        'import { Server } from "@modelcontextprotocol/server";',
        'import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";',
        'const server = new Server({ name: "prompts-only", version: "1.0.0" }, { capabilities: { prompts: {} } });',
        "await server.connect(new StdioServerTransport());",
      ]),
    });
    expect(connection.capabilities.tools).toBeUndefined();
    expect(await listTools(connection)).toEqual([]);
  });

  it("rejects with AbortError when aborted", async () => {
    const connection = await connect({ name: "many", config: manyToolsServer(10) });
    await expect(listTools(connection, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("notifies onToolsChanged on tools/list_changed, and the next listing shows the change", async () => {
    const connection = await connect({ name: "changing", config: listChangingServer() });
    let changes = 0;
    const unsubscribe = connection.onToolsChanged(() => changes++);
    expect((await listTools(connection)).map((t) => t.name)).not.toContain("fresh");

    await callTool(connection, { name: "add_tool", args: { name: "fresh" } });
    for (let i = 0; i < 100 && changes === 0; i++) await sleep(20);

    expect(changes).toBeGreaterThanOrEqual(1);
    expect((await listTools(connection)).map((t) => t.name)).toContain("fresh");

    unsubscribe();
    const before = changes;
    await callTool(connection, { name: "remove_tool", args: { name: "fresh" } });
    await sleep(100);
    expect(changes).toBe(before);
    expect((await listTools(connection)).map((t) => t.name)).not.toContain("fresh");
  });
});
