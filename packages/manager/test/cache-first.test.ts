import { MCPToolCache } from "@mcp-rt/cache";
import { slowInitServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { DeferredMCPTool, MCPManager, MCPTool } from "../src/index.js";
import { echoDefinition as echoDef, nextEvent, useManagers } from "./helpers.js";

const cwd = process.cwd();

const manager = useManagers();

/** A gate far longer than any server here takes: whatever returns before it did not wait for its timer. */
const LONG_GATE_MS = 20_000;

describe('startupMode "cache-first"', () => {
  it("returns before the gate once every pending server has a cache entry; live tools then replace the deferred ones", async () => {
    const cache = new MCPToolCache(new Map());
    const configs = { a: slowInitServer(1200), b: slowInitServer(1200) };
    for (const [name, config] of Object.entries(configs))
      await cache.set({ serverName: name, config, cwd }, { tools: [echoDef] });

    const m = manager({ cache, startupMode: "cache-first", startupTimeoutMs: LONG_GATE_MS });
    const result = await m.connectServers(configs, {});
    // Neither server had settled: the tools came from the cache.
    expect(m.getConnectionStatus("a")).toBe("connecting");
    expect(m.getConnectionStatus("b")).toBe("connecting");
    expect(result.tools.map((t) => t.name)).toEqual(["mcp_a_echo", "mcp_b_echo"]);
    for (const tool of result.tools) expect(tool).toBeInstanceOf(DeferredMCPTool);

    await nextEvent(m, "server:connected", "a");
    await expect.poll(() => m.getConnectionStatus("b"), { timeout: 10_000 }).toBe("connected");
    for (const tool of m.getTools()) expect(tool).toBeInstanceOf(MCPTool);
  });

  it("the same start in gate mode waits for the servers (the gate is longer than they take)", async () => {
    const cache = new MCPToolCache(new Map());
    const configs = { a: slowInitServer(600) };
    await cache.set({ serverName: "a", config: configs.a, cwd }, { tools: [echoDef] });
    const m = manager({ cache, startupMode: "gate", startupTimeoutMs: LONG_GATE_MS });
    const result = await m.connectServers(configs, {});
    expect(m.getConnectionStatus("a")).toBe("connected");
    expect(result.tools[0]).toBeInstanceOf(MCPTool);
  });

  it("waits for a server without a cache entry, as the gate does, while a cached one is deferred", async () => {
    const cache = new MCPToolCache(new Map());
    const cached = slowInitServer(4000);
    const uncached = slowInitServer(600);
    await cache.set({ serverName: "cached", config: cached, cwd }, { tools: [echoDef] });
    const m = manager({ cache, startupMode: "cache-first", startupTimeoutMs: LONG_GATE_MS });
    const result = await m.connectServers({ cached, uncached }, {});
    expect(m.getConnectionStatus("uncached")).toBe("connected");
    expect(m.getConnectionStatus("cached")).toBe("connecting");
    const byName = new Map(result.tools.map((tool) => [tool.name, tool]));
    expect(byName.get("mcp_uncached_echo")).toBeInstanceOf(MCPTool);
    expect(byName.get("mcp_cached_echo")).toBeInstanceOf(DeferredMCPTool);
    expect(result.connectedServers).toEqual(["uncached"]);
  });

  it("rejects an unknown mode, naming the option", () => {
    expect(() => new MCPManager(cwd, { cache: null, startupMode: "eager" as never })).toThrow(
      /startupMode.*"eager"/,
    );
  });
});
