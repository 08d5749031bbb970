import { MCPToolCache } from "@mcp-rt/cache";
import { echoServer, fixtureServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import type { CustomTool, MCPManager } from "../src/index.js";
import { nextEvent, textOf, useManagers } from "./helpers.js";

const cwd = process.cwd();
const manager = useManagers();

const toolOf = (m: MCPManager, name: string): CustomTool => {
  const tool = m.getTools().find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${m.getTools().map((t) => t.name)}`);
  return tool;
};
const namesOf = (m: MCPManager, server: string): string[] =>
  m
    .getTools()
    .filter((t) => m.getToolOwner(t.name)?.server === server)
    .map((t) => t.name)
    .sort();

describe("notifications/tools/list_changed", () => {
  it("re-lists every page and replaces exactly that server's slice, and writes the cache", async () => {
    const cache = new MCPToolCache(new Map());
    const changing = fixtureServer({ tools: 12, pageSize: 5, listChanging: true });
    const m = manager({ cache });
    await m.connectServers({ lc: changing, other: echoServer() }, {});
    expect(namesOf(m, "lc")).toHaveLength(15);
    const otherBefore = toolOf(m, "mcp_other_echo");

    const changed = nextEvent(m, "tools:changed", "lc");
    expect(textOf(await toolOf(m, "mcp_lc_add_tool").execute("c1", { name: "fresh" }))).toBe("added fresh");
    await changed;
    // Tools past the first pages are still there: the re-list followed every cursor.
    expect(namesOf(m, "lc")).toHaveLength(16);
    expect(namesOf(m, "lc")).toEqual(expect.arrayContaining(["mcp_lc_fresh", "mcp_lc_tool_11"]));
    expect(textOf(await toolOf(m, "mcp_lc_fresh").execute("c2", {}))).toBe("fresh called");
    // The other server's slice was not touched: same tool object.
    expect(toolOf(m, "mcp_other_echo")).toBe(otherBefore);
    await expect
      .poll(async () => (await cache.get({ serverName: "lc", config: changing, cwd }))?.map((t) => t.name))
      .toContain("fresh");

    const removed = nextEvent(m, "tools:changed", "lc");
    await toolOf(m, "mcp_lc_remove_tool").execute("c3", { name: "tool_11" });
    await removed;
    expect(namesOf(m, "lc")).not.toContain("mcp_lc_tool_11");
    expect(namesOf(m, "lc")).toHaveLength(15);
    expect(m.getServerStates().find((s) => s.name === "lc")?.toolCount).toBe(15);
  });

  it("applies includeTools / excludeTools to the new list", async () => {
    const m = manager();
    await m.connectServers(
      { lc: { ...fixtureServer({ listChanging: true }), excludeTools: ["blocked"] } },
      {},
    );
    let changed = nextEvent(m, "tools:changed", "lc");
    await toolOf(m, "mcp_lc_add_tool").execute("c1", { name: "blocked" });
    await changed;
    changed = nextEvent(m, "tools:changed", "lc");
    await toolOf(m, "mcp_lc_add_tool").execute("c2", { name: "allowed" });
    await changed;
    expect(namesOf(m, "lc")).toEqual([
      "mcp_lc_add_tool",
      "mcp_lc_allowed",
      "mcp_lc_echo",
      "mcp_lc_remove_tool",
    ]);
  });

  it("coalesces a burst of notifications into a few re-lists that end with the full list", async () => {
    const m = manager();
    await m.connectServers({ lc: fixtureServer({ tools: 40, pageSize: 3, listChanging: true }) }, {});
    let relists = 0;
    m.on("tools:changed", ({ name }) => {
      if (name === "lc") relists++;
    });
    const add = toolOf(m, "mcp_lc_add_tool");
    const burst = 25;
    await Promise.all(Array.from({ length: burst }, (_, i) => add.execute(`c${i}`, { name: `added_${i}` })));
    // A re-list queued behind the first starts a second after it (minRelistIntervalMs).
    await expect
      .poll(() => namesOf(m, "lc").filter((n) => n.includes("added_")).length, { timeout: 5000 })
      .toBe(burst);
    // Let any queued re-list finish, then count.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(namesOf(m, "lc")).toHaveLength(1 + 40 + 2 + burst);
    expect(relists).toBeGreaterThanOrEqual(1);
    expect(relists).toBeLessThanOrEqual(5);
  });
});
