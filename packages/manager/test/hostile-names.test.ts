import { MCPToolCache } from "@mcp-rt/cache";
import type { MCPServerConfig } from "@mcp-rt/config";
import { hangingServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import type { MCPManager } from "../src/index.js";
import { TOOL_NAME_PATTERN } from "../src/tools/tool-catalog.js";
import { useManagers } from "./helpers.js";

// Tool names as hostile or careless servers send them, exposed through a real manager.
// Servers hang, so every tool comes from the cache: any name can be listed.
const cwd = process.cwd();

const hostile = [
  "with space",
  "a/b/c",
  "ünïcødé",
  "emoji🚀🚀tool",
  "x".repeat(250),
  "日本語",
  "!!!",
  "get-item",
  "get.item",
  "GET_ITEM",
  "a_b_echo",
  "echo",
  "b_echo",
  "show_1234abcd",
];
const servers: Record<string, string[]> = {
  a: hostile,
  a_b: ["echo", "x".repeat(250)],
  "a.b": ["echo"],
  A: ["echo"],
  日本: ["tool", "日本語"],
  "srv.with.dots": ["srv.with.dots.list", "list"],
};

const manager = useManagers();

async function start(): Promise<MCPManager> {
  const cache = new MCPToolCache(new Map());
  const configs: Record<string, MCPServerConfig> = {};
  for (const [name, tools] of Object.entries(servers)) {
    const config = { ...hangingServer(), timeout: 60_000 };
    configs[name] = config;
    await cache.set(
      { serverName: name, config, cwd },
      { tools: tools.map((tool) => ({ name: tool, inputSchema: { type: "object" } })) },
    );
  }
  const m = manager({ cache });
  const result = await m.connectServers(configs, {});
  expect(result.errors.size).toBe(0);
  return m;
}

describe("hostile tool and server names", () => {
  it("are all valid, distinct, stable across runs, and mapped to their owner", async () => {
    const m = await start();
    const names = m.getTools().map((t) => t.name);
    expect(names).toHaveLength(Object.values(servers).flat().length);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    for (const tool of m.getTools()) {
      const owner = m.getToolOwner(tool.name);
      expect(tool.label).toBe(`${owner?.server}/${owner?.tool}`);
    }
    // Readable where nothing clashes.
    expect(names).toContain("mcp_a_with_space");
    expect(names).toContain("mcp_a_emoji_tool");
    expect(names).toContain("mcp_a_n_c_d");

    const again = await start();
    expect(again.getTools().map((t) => t.name)).toEqual(names);
  });

  it("removing a server removes exactly its tools, whatever the names", async () => {
    const m = await start();
    for (const server of Object.keys(servers)) {
      const before = m.getTools().map((t) => m.getToolOwner(t.name));
      await m.disconnectServer(server);
      const after = m.getTools().map((t) => m.getToolOwner(t.name));
      expect(after).toEqual(before.filter((owner) => owner?.server !== server));
      for (const name of m.getTools().map((t) => t.name)) expect(name).toMatch(TOOL_NAME_PATTERN);
    }
    expect(m.getTools()).toEqual([]);
  });
});
