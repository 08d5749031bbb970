import { EventEmitter } from "node:events";
import { MCPToolCache, type ToolCacheStore } from "@mcp-rt/cache";
import { slowInitServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { DeferredMCPTool, type MCPManagerOptions, type MCPStartupMode, MCPTool } from "../src/index.js";
import { echoDefinition, nextEvent, useManagers } from "./helpers.js";

const cwd = process.cwd();
const managers = useManagers();
const modes: MCPStartupMode[] = ["gate", "cache-first"];
// Caches on a store other than a Map would otherwise make the installation's key file in the real home.
const key = "mcp-rt-manager-tests-0123456789abcdef";

/** A store in memory whose reads answer `readDelayMs` late (a busy machine's file store, say). */
function slowReadStore(readDelayMs: number): ToolCacheStore {
  const map = new Map<string, unknown>();
  return Object.assign(new EventEmitter(), {
    opts: {},
    get: async (key: string) => {
      await new Promise((resolve) => setTimeout(resolve, readDelayMs));
      return map.get(key);
    },
    set: async (key: string, value: unknown) => {
      map.set(key, value);
      return true;
    },
    delete: async (key: string) => map.delete(key),
    clear: async () => map.clear(),
  }) as unknown as ToolCacheStore;
}

const stateOf = (m: ReturnType<typeof managers>, name: string) =>
  m.getServerStates().find((state) => state.name === name);

describe.each(modes)("%s: a server that did not come up within the startup wait", (startupMode) => {
  const manager = (options: MCPManagerOptions) =>
    managers({ startupMode, startupTimeoutMs: 50, maxStartupWaitMs: 1000, ...options });

  it("is waited for up to the bound once; the next start returns without waiting for it", async () => {
    const cache = new MCPToolCache(new Map());
    const slow = slowInitServer(4000);

    const first = manager({ cache });
    let started = performance.now();
    const one = await first.connectServers({ slow });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(one.tools).toEqual([]);
    expect(stateOf(first, "slow")).toMatchObject({
      status: "connecting",
      notWaitedFor: { reason: "ran-out", waitMs: 1000 },
    });
    // The run ends before the server is up: its tools never reach the cache, only the note.
    await first.disconnectAll();
    expect(await cache.get({ serverName: "slow", config: slow, cwd })).toBeNull();

    const second = manager({ cache });
    started = performance.now();
    const two = await second.connectServers({ slow });
    expect(two.tools).toEqual([]);
    expect(stateOf(second, "slow")).toMatchObject({
      status: "connecting",
      deferred: false,
      notWaitedFor: { reason: "missed-before", waitMs: 1000 },
    });
    expect(performance.now() - started).toBeLessThan(900);
  });
});

describe("the note of a missed startup wait", () => {
  const manager = (options: MCPManagerOptions) =>
    managers({ startupMode: "cache-first", startupTimeoutMs: 50, maxStartupWaitMs: 1000, ...options });

  it("is replaced by the server's tools once it comes up: its tools follow live, and the next start has them cached", async () => {
    const cache = new MCPToolCache(new Map());
    const slow = slowInitServer(1500);
    await cache.noteMissedStartup({ serverName: "slow", config: slow, cwd }, { waitMs: 1000 });

    const m = manager({ cache });
    await m.connectServers({ slow });
    expect(stateOf(m, "slow")?.notWaitedFor).toEqual({ reason: "missed-before", waitMs: 1000 });
    await nextEvent(m, "tools:changed", "slow");
    expect(m.getTools().map((tool) => tool.name)).toEqual(["mcp_slow_echo"]);
    expect(stateOf(m, "slow")).toMatchObject({ status: "connected" });
    expect(stateOf(m, "slow")?.notWaitedFor).toBeUndefined();
    await m.disconnectAll();
    expect((await cache.read({ serverName: "slow", config: slow, cwd })).missedStartup).toBeUndefined();

    const next = manager({ cache });
    const { tools } = await next.connectServers({ slow });
    expect(tools.map((tool) => tool.name)).toEqual(["mcp_slow_echo"]);
    expect(tools[0]).toBeInstanceOf(DeferredMCPTool);
  });

  it("does not hold a longer wait: a server that comes up within it is waited for again", async () => {
    const cache = new MCPToolCache(new Map());
    const slow = slowInitServer(600);
    await cache.noteMissedStartup({ serverName: "slow", config: slow, cwd }, { waitMs: 300 });
    const m = manager({ cache, maxStartupWaitMs: 10_000 });
    const { tools, connectedServers } = await m.connectServers({ slow });
    expect(connectedServers).toEqual(["slow"]);
    expect(tools[0]).toBeInstanceOf(MCPTool);
  });

  it("expires: after the cache's missedStartupTtlMs the server is waited for again", async () => {
    const cache = new MCPToolCache(new Map(), { missedStartupTtlMs: 200 });
    const slow = slowInitServer(600);
    await cache.noteMissedStartup({ serverName: "slow", config: slow, cwd }, { waitMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    const m = manager({ cache, maxStartupWaitMs: 10_000 });
    expect((await m.connectServers({ slow })).connectedServers).toEqual(["slow"]);
  });

  it("is kept per config: the same server with another config is waited for", async () => {
    const cache = new MCPToolCache(new Map());
    const slow = slowInitServer(600);
    await cache.noteMissedStartup(
      { serverName: "slow", config: slowInitServer(4000), cwd },
      { waitMs: 10_000 },
    );
    const m = manager({ cache, maxStartupWaitMs: 10_000 });
    expect((await m.connectServers({ slow })).connectedServers).toEqual(["slow"]);
  });
});

describe("a cache read that timed out", () => {
  it.each(modes)(
    "%s: stays wanted: its entry, landing before the server is up, stands in instead of a wait",
    async (startupMode) => {
      const cache = new MCPToolCache(slowReadStore(600), { key, readTimeoutMs: 50 });
      const slow = slowInitServer(5000);
      await cache.set({ serverName: "slow", config: slow, cwd }, { tools: [echoDefinition] });
      const m = managers({ cache, startupMode, startupTimeoutMs: 50 });
      const started = performance.now();
      const { tools } = await m.connectServers({ slow });
      expect(performance.now() - started).toBeLessThan(3000);
      expect(tools.map((tool) => tool.name)).toEqual(["mcp_slow_echo"]);
      expect(tools[0]).toBeInstanceOf(DeferredMCPTool);
      expect(stateOf(m, "slow")).toMatchObject({ status: "connecting", deferred: true });
    },
  );

  it("leaves no note when the wait ran out before the store answered: an entry may be there", async () => {
    const store = slowReadStore(1500);
    const cache = new MCPToolCache(store, { key, readTimeoutMs: 50 });
    const slow = slowInitServer(5000);
    const m = managers({ cache, startupMode: "cache-first", startupTimeoutMs: 50, maxStartupWaitMs: 300 });
    await m.connectServers({ slow });
    expect(stateOf(m, "slow")?.notWaitedFor).toEqual({ reason: "ran-out", waitMs: 300 });
    await m.disconnectAll();
    const reader = new MCPToolCache(store, { key, readTimeoutMs: 5000 });
    expect(await reader.read({ serverName: "slow", config: slow, cwd })).toEqual({ entry: null });
  });
});
