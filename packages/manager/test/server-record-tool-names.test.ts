import type { MCPServerConnection } from "@mcp-rt/client";
import { McpRtError } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import type { Attempt } from "../src/server/attempt.js";
import type { ConnectionWatch } from "../src/server/connection-watch.js";
import { ServerRecord } from "../src/server/server-record.js";

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });
// The record only keeps the connection and its era; these tests never use it.
const connection = {
  era: "legacy",
  eraDecision: { how: "probe", text: "it answered -32601" },
  eraVerdict: { era: "legacy", protocolVersion: "2025-11-25", decidedAt: 0 },
} as MCPServerConnection;
const watch = { stop() {}, activate() {} } as unknown as ConnectionWatch;

/** Takes `record` through an attempt to the point where it commits (the table allows `listed` only from `listing`). */
function listing(record: ServerRecord): ServerRecord {
  record.start({ config: record.config } as Attempt);
  record.handshake(watch);
  return record;
}

describe("ServerRecord.toolNames", () => {
  it("is built once per tool list, not once per call (O(1) per call on a 5001-tool server)", () => {
    const record = new ServerRecord("s", { command: "node" });
    const tools = Array.from({ length: 5001 }, (_, i) => tool(`tool_${i}`));
    expect(listing(record).connect({ connection, tools: tools, connectedMs: 1, queuedMs: 0 })).toBe(true);
    const names = record.toolNames;
    expect(names.size).toBe(5001);
    expect(names.has("tool_4999")).toBe(true);
    // The same set while the list is unchanged: a call does not rebuild it.
    for (let i = 0; i < 100; i++) expect(record.toolNames).toBe(names);
  });

  it("follows every new list: relisted, deferred from the cache, filtered, failed", () => {
    const record = new ServerRecord("s", { command: "node", excludeTools: ["hidden"] });
    record.defer([tool("a"), tool("hidden")]);
    expect([...record.toolNames]).toEqual(["a"]);
    expect(
      listing(record).connect({ connection, tools: [tool("a"), tool("b")], connectedMs: 1, queuedMs: 0 }),
    ).toBe(true);
    expect([...record.toolNames]).toEqual(["a", "b"]);
    record.relisted([tool("c")]);
    expect([...record.toolNames]).toEqual(["c"]);
    record.fail(new McpRtError("INIT_FAILED", "x"));
    expect(record.toolNames.size).toBe(0);
  });
});
