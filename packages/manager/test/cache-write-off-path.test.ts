import { MCPToolCache } from "@mcp-rt/cache";
import { echoServer, slowInitServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { echoDefinition, nextEvent, useManagers } from "./helpers.js";

const manager = useManagers();

/** A cache that notes, for each write, whether `connectServers` had returned when it began. */
class WatchedCache extends MCPToolCache {
  returned = false;
  writesBeforeReturn = 0;
  writes = 0;
  override async set(...args: Parameters<MCPToolCache["set"]>): Promise<void> {
    this.writes += 1;
    if (!this.returned) this.writesBeforeReturn += 1;
    await super.set(...args);
  }
}

describe("the cache write of a connected server", () => {
  it("starts after connectServers returned, and is done once disconnectAll resolves", async () => {
    const cache = new WatchedCache(new Map());
    const m = manager({ cache });
    const config = echoServer();
    const result = await m.connectServers({ echo: config });
    cache.returned = true;
    expect(result.connectedServers).toEqual(["echo"]);
    expect(cache.writesBeforeReturn).toBe(0);
    await m.disconnectAll();
    expect(cache.writes).toBe(1);
    expect(
      (await cache.get({ serverName: "echo", config, cwd: process.cwd() }))?.map((tool) => tool.name),
    ).toContain("echo");
  });

  it("waits until the other servers starting with it settled: a start's CPU goes to the servers", async () => {
    const cache = new WatchedCache(new Map());
    const slow = slowInitServer(1500);
    const fast = echoServer();
    // Only `slow` is cached: cache-first returns once `fast` is live, `slow` still starting.
    await cache.set({ serverName: "slow", config: slow, cwd: process.cwd() }, { tools: [echoDefinition] });
    cache.writes = 0;
    const m = manager({ cache, startupMode: "cache-first", startupTimeoutMs: 20_000 });
    const slowConnected = nextEvent(m, "server:connected", "slow");
    const result = await m.connectServers({ slow, fast });
    expect(result.connectedServers).toEqual(["fast"]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(m.getConnectionStatus("slow")).toBe("connecting");
    expect(cache.writes).toBe(0);
    await slowConnected;
    await m.disconnectAll();
    expect(cache.writes).toBe(2);
  });
});
