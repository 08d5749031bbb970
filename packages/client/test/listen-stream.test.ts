import { callTool, listTools, subscribeResource, unsubscribeResource } from "@mcp-rt/client";
import type { McpRtError } from "@mcp-rt/config";
import { dualEraServer, echoServer, modernServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { inlineServer, until, useConnections } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const { connect } = useConnections();

/** A 2026-07-28-only server with a resource whose updates a tool sends. */
const resourceServer = inlineServer([
  "import { McpServer } from '@modelcontextprotocol/server';",
  "import { serveStdio } from '@modelcontextprotocol/server/stdio';",
  "import * as z from 'zod/v4';",
  "serveStdio(() => {",
  "  const mcp = new McpServer({ name: 'notes', version: '1' }, { capabilities: { resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } } });",
  "  mcp.registerResource('note', 'notes://a', {}, async () => ({ contents: [{ uri: 'notes://a', text: 'a' }] }));",
  "  mcp.registerTool('touch', { inputSchema: z.object({ uri: z.string() }) }, async ({ uri }) => {",
  "    await mcp.server.sendResourceUpdated({ uri });",
  "    return { content: [{ type: 'text', text: 'touched' }] };",
  "  });",
  "  return mcp;",
  "}, { legacy: 'reject' });",
]);

/** A bare 2026-07-28 server that refuses subscriptions/listen (as Context7 over HTTP, or GitHub's, do). */
const deafServer = inlineServer([
  "import { createInterface } from 'node:readline';",
  "const results = {",
  "  'server/discover': { supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true } }, resultType: 'complete' },",
  "  'tools/list': { tools: [{ name: 'hello', inputSchema: { type: 'object' } }], resultType: 'complete', ttlMs: 0, cacheScope: 'private' },",
  "};",
  "createInterface({ input: process.stdin }).on('line', (line) => {",
  "  const { id, method } = JSON.parse(line);",
  "  if (id === undefined) return;",
  "  const code = method === 'subscriptions/listen' ? -32603 : -32601;",
  "  const body = results[method] ? { result: results[method] } : { error: { code, message: 'not here' } };",
  "  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, ...body }) + '\\n');",
  "});",
]);

describe("subscriptions/listen on a 2026-07-28 connection", () => {
  it.each([
    ["a modern-only server", modernServer],
    ["a dual-era server", dualEraServer],
  ])("%s: a tool list change reaches onToolsChanged", async (_label, make) => {
    const connection = await connect({ name: "m", config: make({ listChanging: true }) });
    expect(connection.era).toBe("modern");
    let changes = 0;
    connection.onToolsChanged(() => changes++);
    // The stream opens in the background, after connect: a change made before it is acknowledged is not heard.
    for (let i = 0; changes === 0 && i < 25; i++) {
      await callTool(connection, { name: "add_tool", args: { name: `extra${i}` } });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(changes).toBeGreaterThan(0);
    expect((await listTools(connection)).map((tool) => tool.name)).toContain("extra0");
  });

  it("a resource subscription joins the stream's filter, and its updates reach onResourceUpdated", async () => {
    const connection = await connect({ name: "notes", config: resourceServer });
    expect(connection.era).toBe("modern");
    const updates: string[] = [];
    connection.onResourceUpdated((uri) => updates.push(uri));
    await subscribeResource(connection, { uri: "notes://a" });
    await callTool(connection, { name: "touch", args: { uri: "notes://a" } });
    await until(() => updates.includes("notes://a"), 5000);
    await unsubscribeResource(connection, { uri: "notes://a" });
    const before = updates.length;
    await callTool(connection, { name: "touch", args: { uri: "notes://a" } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(updates.length).toBe(before);
  });

  it("a server that refuses to listen stays connected, and says so", async () => {
    const connection = await connect({ name: "deaf", config: deafServer });
    expect(connection.era).toBe("modern");
    const errors: McpRtError[] = [];
    connection.onError((error) => errors.push(error));
    await until(() => errors.length > 0, 5000);
    expect(errors[0]?.message).toMatch(
      /^MCP server "deaf" refused subscriptions\/listen \(.*\); it stays connected/,
    );
    expect(connection.closed).toBe(false);
    expect((await listTools(connection)).map((tool) => tool.name)).toEqual(["hello"]);
  });

  it("a legacy connection opens no stream", async () => {
    const connection = await connect({ name: "old", config: echoServer({ listChanging: true }) });
    expect(connection.era).toBe("legacy");
    let changes = 0;
    connection.onToolsChanged(() => changes++);
    await callTool(connection, { name: "add_tool", args: { name: "extra" } });
    await until(() => changes > 0, 5000);
  });
});
