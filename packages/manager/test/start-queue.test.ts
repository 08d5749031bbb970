import { MCPToolCache } from "@mcp-rt/cache";
import {
  busyStartServer,
  crashOnCallServer,
  echoServer,
  exitServer,
  hangingServer,
  silentServer,
  slowInitServer,
} from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { MCPManager } from "../src/index.js";
import { echoDefinition, useManagers } from "./helpers.js";

const cwd = process.cwd();
const manager = useManagers();

/** The order in which servers connected, as `server:connected` says it. */
function connectedOrder(m: MCPManager): string[] {
  const order: string[] = [];
  m.on("server:connected", ({ name }) => order.push(name));
  return order;
}

describe("stdio starts take turns (maxConcurrentStarts)", () => {
  it("one at a time: servers the start waits for first, then by how fast they came up last time, unknown last", async () => {
    const cache = new MCPToolCache(new Map());
    const configs = {
      slowLastTime: slowInitServer(300, { name: "slow-last-time" }),
      fastLastTime: slowInitServer(300, { name: "fast-last-time" }),
      unknown: slowInitServer(300, { name: "unknown" }),
      uncached: slowInitServer(300, { name: "uncached" }),
    };
    await cache.set(
      { serverName: "slowLastTime", config: configs.slowLastTime, cwd },
      { tools: [echoDefinition], startMs: 5000 },
    );
    await cache.set(
      { serverName: "fastLastTime", config: configs.fastLastTime, cwd },
      { tools: [echoDefinition], startMs: 100 },
    );
    await cache.set({ serverName: "unknown", config: configs.unknown, cwd }, { tools: [echoDefinition] });
    const m = manager({ cache, maxConcurrentStarts: 1 });
    const order = connectedOrder(m);
    await m.connectServers(configs);
    await expect.poll(() => order.length, { timeout: 15_000 }).toBe(4);
    expect(order).toEqual(["uncached", "fastLastTime", "slowLastTime", "unknown"]);
    // Each but the first queued for its turn, and says so.
    const states = new Map(m.getServerStates().map((state) => [state.name, state]));
    expect(states.get("uncached")?.queuedMs).toBeUndefined();
    expect(states.get("slowLastTime")?.queuedMs).toBeGreaterThan(500);
  });

  it("remembers how long a server took to come up, for the next start's order", async () => {
    const cache = new MCPToolCache(new Map());
    const config = slowInitServer(200);
    const m = manager({ cache, maxConcurrentStarts: 1 });
    await m.connectServers({ s: config });
    await m.disconnectAll();
    const read = await cache.read({ serverName: "s", config, cwd });
    expect(read.entry?.startMs).toBeGreaterThanOrEqual(200);
  });

  it("a server that exits at start gives its turn back when it fails, not after the hold", async () => {
    const m = manager({ maxConcurrentStarts: 1 });
    const started = performance.now();
    let failedAfter = Number.NaN;
    m.on("server:failed", () => {
      failedAfter = performance.now() - started;
    });
    const result = await m.connectServers({ broken: exitServer(3), fine: echoServer() });
    expect(result.errors.has("broken")).toBe(true);
    expect(result.connectedServers).toEqual(["fine"]);
    // `fine` queued until `broken` failed, not for the 2 s hold past it (on a machine so
    // busy that `broken` took longer than the hold to fail, the hold passed the turn on).
    const queued = m.getServerStates().find((state) => state.name === "fine")?.queuedMs ?? 0;
    expect(Math.abs(queued - Math.min(failedAfter, 2000))).toBeLessThan(400);
  });

  it.each([
    ["hung", hangingServer],
    ["silent", silentServer],
  ])("a %s server holds its turn only for the bounded hold; the next starts meanwhile", async (_, make) => {
    const m = manager({ maxConcurrentStarts: 1, maxStartupWaitMs: 0 });
    await m.connectServers({ stuck: { ...make(), timeout: 30_000 }, next: echoServer() });
    await expect.poll(() => m.getConnectionStatus("next"), { timeout: 20_000 }).toBe("connected");
    // `next` came up while `stuck` still hangs: it queued for the hold (2 s), not for `stuck`'s timeout.
    expect(m.getConnectionStatus("stuck")).toBe("connecting");
    expect(m.getServerStates().find((state) => state.name === "next")?.queuedMs).toBeGreaterThanOrEqual(1500);
  });

  it("a queued server's timeout counts from its turn, not from when it queued", async () => {
    const m = manager({ maxConcurrentStarts: 1 });
    // `late` queues about 4 s (two holds) behind the hung servers, longer than its own 3 s timeout.
    void m.connectServers({
      stuck1: { ...hangingServer(), timeout: 20_000 },
      stuck2: { ...hangingServer(), timeout: 20_000 },
      late: { ...slowInitServer(200), timeout: 3000 },
    });
    await expect.poll(() => m.getConnectionStatus("late"), { timeout: 10_000 }).toBe("connected");
    expect(m.getServerStates().find((state) => state.name === "late")?.queuedMs).toBeGreaterThan(3000);
  });

  it("waiting for a queued server moves it forward", async () => {
    const m = manager({ maxConcurrentStarts: 1, maxStartupWaitMs: 0 });
    await m.connectServers({
      stuck: { ...hangingServer(), timeout: 30_000 },
      other: { ...hangingServer(), timeout: 30_000 },
      late: echoServer(),
    });
    await m.waitForConnection("late");
    // It went before `other`, which queued before it.
    expect(m.getServerStates().find((state) => state.name === "other")?.queuedMs).toBeUndefined();
    expect(m.getConnectionStatus("other")).toBe("connecting");
  });

  it("a call to a deferred tool of a queued server moves it to the front", async () => {
    const cache = new MCPToolCache(new Map());
    const configs = {
      a: slowInitServer(700, { name: "a" }),
      b: slowInitServer(700, { name: "b" }),
      c: slowInitServer(700, { name: "c" }),
    };
    for (const [name, config] of Object.entries(configs)) {
      await cache.set({ serverName: name, config, cwd }, { tools: [echoDefinition], startMs: 700 });
    }
    const m = manager({ cache, maxConcurrentStarts: 1, startupMode: "cache-first" });
    const order = connectedOrder(m);
    const { tools } = await m.connectServers(configs);
    const call = tools.find((tool) => tool.name === "mcp_c_echo");
    const result = await call!.execute("1", { message: "hi" }, undefined, undefined);
    expect(JSON.stringify(result.content)).toContain("hi");
    await expect.poll(() => order.length, { timeout: 15_000 }).toBe(3);
    // `a` had its turn already; `c` went before `b`.
    expect(order).toEqual(["a", "c", "b"]);
  });

  it("a reload that restarts every server takes turns as a start does", async () => {
    const configs = Object.fromEntries(
      ["a", "b", "c"].map((name) => [name, slowInitServer(300, { name })] as const),
    );
    const m = manager({ maxConcurrentStarts: 1 });
    await m.connectServers(configs);
    const queued: number[] = [];
    m.on("server:connected", ({ queuedMs }) => queued.push(queuedMs));
    const { restarted, errors } = await m.reload({ configs, all: true });
    expect(errors.size).toBe(0);
    expect(restarted.sort()).toEqual(["a", "b", "c"]);
    await expect.poll(() => queued.length, { timeout: 15_000 }).toBe(3);
    // One at a time: the second waited about one start (≥ 300 ms), the third about two.
    queued.sort((x, y) => x - y);
    expect(queued[1]).toBeGreaterThanOrEqual(250);
    expect(queued[2]).toBeGreaterThanOrEqual(500);
  });

  it("servers that crash together reconnect taking turns", async () => {
    const names = ["a", "b", "c"];
    const m = manager({ maxConcurrentStarts: 1, reconnect: { initialDelayMs: 10, maxDelayMs: 50 } });
    const { tools } = await m.connectServers(
      Object.fromEntries(names.map((name) => [name, crashOnCallServer({ name, initDelayMs: 300 })] as const)),
    );
    const queued: number[] = [];
    m.on("server:connected", ({ queuedMs }) => queued.push(queuedMs));
    await Promise.allSettled(
      names.map((name) =>
        tools.find((tool) => tool.name === `mcp_${name}_crash`)!.execute("1", {}, undefined, undefined),
      ),
    );
    await expect.poll(() => queued.length, { timeout: 15_000 }).toBe(3);
    queued.sort((x, y) => x - y);
    expect(queued[2]).toBeGreaterThanOrEqual(500);
  });

  it("Infinity starts every server at once, as before: nobody queues", async () => {
    const m = manager({ maxConcurrentStarts: Number.POSITIVE_INFINITY });
    const configs = Object.fromEntries(
      Array.from({ length: 4 }, (_, i) => [`s${i}`, busyStartServer(100)] as const),
    );
    const result = await m.connectServers(configs);
    expect(result.connectedServers.sort()).toEqual(["s0", "s1", "s2", "s3"]);
    for (const state of m.getServerStates()) expect(state.queuedMs).toBeUndefined();
  });

  it("rejects a maxConcurrentStarts that is not a whole number ≥ 1 or Infinity, naming the option", () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => new MCPManager(cwd, { cache: null, maxConcurrentStarts: bad })).toThrow(
        /maxConcurrentStarts/,
      );
    }
  });
});
