import { callTool } from "@mcp-rt/client";
import type { McpRtError } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { inlineServer, useConnections } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const { connect } = useConnections();

/**
 * A stdio server written by hand, of either era, whose tool `<kind>` answers
 * with `resultType: <kind>`, or without one for `absent`.
 */
function resultTypeServer(era: "modern" | "legacy") {
  return inlineServer([
    "import { createInterface } from 'node:readline';",
    "const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');",
    `const modern = ${era === "modern"};`,
    "const stamp = (result) => (modern ? { resultType: 'complete', ...result } : result);",
    "createInterface({ input: process.stdin }).on('line', (line) => {",
    "  const { id, method, params } = JSON.parse(line);",
    "  if (id === undefined) return;",
    "  if (method === 'server/discover' && modern)",
    "    return send({ jsonrpc: '2.0', id, result: stamp({ supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'rt', version: '1.0.0' } }) });",
    "  if (method === 'initialize' && !modern)",
    "    return send({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'rt', version: '1.0.0' } } });",
    "  if (method === 'tools/call') {",
    "    const kind = params.name;",
    "    const result = { content: [{ type: 'text', text: 'answer of ' + kind }] };",
    "    return send({ jsonrpc: '2.0', id, result: kind === 'absent' ? result : { ...result, resultType: kind } });",
    "  }",
    "  send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });",
    "});",
  ]);
}

describe("a result's resultType (2026-07-28)", () => {
  it("on a 2026-07-28 connection: complete is the result, an unknown one a clear PROTOCOL_ERROR", async () => {
    const connection = await connect({ name: "rt", config: resultTypeServer("modern") });
    expect(connection.protocolVersion).toBe("2026-07-28");
    expect((await callTool(connection, { name: "complete", args: {} })).content).toEqual([
      { type: "text", text: "answer of complete" },
    ]);
    const unknown = (await callTool(connection, { name: "later_maybe", args: {} }).catch(
      (e: unknown) => e,
    )) as McpRtError;
    expect(unknown).toMatchObject({ name: "McpRtError", code: "PROTOCOL_ERROR", server: "rt" });
    expect(unknown.message).toBe(
      `The call of tool "later_maybe" to MCP server "rt" failed: Unsupported result type 'later_maybe' for tools/call`,
    );
  });

  it("from a server of an earlier revision: an absent resultType means complete", async () => {
    const connection = await connect({
      name: "rt",
      config: { ...resultTypeServer("legacy"), protocol: "legacy" },
    });
    expect(connection.protocolVersion).toBe("2025-11-25");
    expect((await callTool(connection, { name: "absent", args: {} })).content).toEqual([
      { type: "text", text: "answer of absent" },
    ]);
  });
});
