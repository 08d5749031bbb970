import { describe, expect, it } from "vitest";
import { ServerRecord } from "../src/server/server-record.js";
import type { MCPToolHost } from "../src/tools/mcp-tool.js";
import { ToolCatalog } from "../src/tools/tool-catalog.js";

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });
// The catalog hands the host to the tools it makes; these tests never call one.
const host = {} as MCPToolHost;

/** Servers by name, each a record made on first use. */
function serversTable() {
  const records = new Map<string, ServerRecord>();
  return {
    slices: { views: () => records.values() },
    ensure(name: string): ServerRecord {
      const record = records.get(name) ?? new ServerRecord(name, { command: "node" });
      records.set(name, record);
      return record;
    },
  };
}

describe("ToolCatalog", () => {
  it("names the set when it is read after a change, and not again until the next change", () => {
    const table = serversTable();
    const catalog = new ToolCatalog(table.slices, host);
    table.ensure("a").defer([tool("read")]);
    table.ensure("b").defer([tool("read")]);

    // A change the catalog was not told of is not seen: reads do not name the set again.
    expect(catalog.tools).toEqual([]);
    catalog.invalidate();
    const first = catalog.tools;
    expect(first.map((t) => t.name)).toEqual(["mcp_a_read", "mcp_b_read"]);
    expect(catalog.tools).toBe(first);

    // Many changes, one read: the read sees the last state.
    table.ensure("b").defer([tool("write")]);
    catalog.invalidate();
    table.ensure("c").defer([tool("read")]);
    catalog.invalidate();
    const second = catalog.tools;
    expect(second).not.toBe(first);
    expect(second.map((t) => t.name)).toEqual(["mcp_a_read", "mcp_b_write", "mcp_c_read"]);
    // An unchanged tool stays the same object.
    expect(second[0]).toBe(first[0]);
  });

  it("answers owner() with the current set, named on the way if it changed", () => {
    const table = serversTable();
    const catalog = new ToolCatalog(table.slices, host);
    table.ensure("a").defer([tool("read")]);
    catalog.invalidate();
    expect(catalog.owner("mcp_a_read")).toEqual({ server: "a", tool: "read" });
    table.ensure("a").defer([tool("list")]);
    catalog.invalidate();
    expect(catalog.owner("mcp_a_read")).toBeUndefined();
    expect(catalog.owner("mcp_a_list")).toEqual({ server: "a", tool: "list" });
  });
});
