import { callTool, listTools } from "@mcp-rt/client";
import type { MCPStdioServerConfig, McpRtError } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { inlineServer, useConnections } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

/** A low-level SDK server whose tools/call answers with JSON-RPC errors instead of tool results. */
const strictServer = inlineServer([
  'import { Server } from "@modelcontextprotocol/server";',
  'import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";',
  'import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";',
  'const server = new Server({ name: "strict", version: "1.0.0" }, { capabilities: { tools: {} } });',
  "server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'boom', inputSchema: { type: 'object' }, icons: [], _meta: { x: 1 } }] }));",
  "server.setRequestHandler('tools/call', (request) => {",
  "  if (request.params.name === 'boom') throw new ProtocolError(ProtocolErrorCode.InternalError, 'kaboom');",
  "  throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown tool: ' + request.params.name);",
  "});",
  "await server.connect(new StdioServerTransport());",
]);

/**
 * A test peer, not a real server: answers `initialize` with `answer` (a
 * `result` or an `error`) and anything else before it, the era probe
 * included, with -32601 as a legacy server does.
 */
const initializeAnswering = (answer: string, before: string[] = []): MCPStdioServerConfig =>
  inlineServer([
    "import { createInterface } from 'node:readline';",
    "createInterface({ input: process.stdin }).on('line', (line) => {",
    "  const { id, method } = JSON.parse(line);",
    "  if (id === undefined) return;",
    "  const reply = (body) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, ...body }) + '\\n');",
    "  if (method !== 'initialize') return reply({ error: { code: -32601, message: 'Method not found' } });",
    ...before,
    `  reply(${answer});`,
    "});",
  ]);

/** Answers `initialize` with a JSON-RPC error. */
const rejectingServer = initializeAnswering("{ error: { code: -32600, message: 'clients not welcome' } }", [
  "  console.error('refusing this client');",
]);

/** Answers `initialize` with a protocol version the SDK does not speak. */
const futureServer = initializeAnswering(
  "{ result: { protocolVersion: '2999-01-01', capabilities: {}, serverInfo: { name: 'future', version: '9' } } }",
);

const { connect, connectError } = useConnections();

describe("JSON-RPC errors from servers", () => {
  it("maps an unknown-tool error to TOOL_NOT_FOUND and other errors to PROTOCOL_ERROR", async () => {
    const connection = await connect({ name: "strict", config: strictServer });

    const tools = await listTools(connection);
    expect(tools).toEqual([{ name: "boom", inputSchema: { type: "object" } }]);

    const missing = (await callTool(connection, { name: "nope", args: {} }).catch(
      (e: unknown) => e,
    )) as McpRtError;
    expect(missing).toMatchObject({ code: "TOOL_NOT_FOUND", server: "strict", details: { rpcCode: -32602 } });
    expect(missing.message).toBe(
      'MCP server "strict" has no tool "nope" (Unknown tool: nope); list its tools again',
    );

    const failed = (await callTool(connection, { name: "boom", args: {} }).catch(
      (e: unknown) => e,
    )) as McpRtError;
    expect(failed).toMatchObject({ code: "PROTOCOL_ERROR", details: { rpcCode: -32603 } });
    expect(failed.message).toBe(
      'MCP server "strict" answered the call of tool "boom" with error -32603: kaboom',
    );
  });

  it("reports a rejected initialize as INIT_FAILED with the server's reason and stderr", async () => {
    const error = await connectError({ name: "rude", config: rejectingServer });
    expect(error.code).toBe("INIT_FAILED");
    expect(error.message).toBe(
      'Connection to MCP server "rude" failed: the server rejected "initialize" (-32600: clients not welcome). stderr: refusing this client',
    );
  });

  it("reports an unsupported protocol version as INIT_FAILED", async () => {
    const error = await connectError({ name: "future", config: futureServer });
    expect(error.code).toBe("INIT_FAILED");
    expect(error.message).toContain("protocol version is not supported: 2999-01-01");
  });
});
