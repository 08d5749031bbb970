import { MCPToolCache } from "@mcp-rt/cache";
import {
  childProcessesOf,
  echoServer,
  exitServer,
  serverProcessesOf,
  sigtermIgnoringServer,
  slowInitServer,
} from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { DeferredMCPTool, MCPManager } from "../src/index.js";
import { echoDefinition as echoDef, recordEvents, textOf, useManagers } from "./helpers.js";

const cwd = process.cwd();

const manager = useManagers();

describe("concurrency", () => {
  it("a second disconnectAll waits for the closes the first one started", async () => {
    const m = manager();
    // Ends only by SIGKILL, after the stdin and SIGTERM graces: a close that takes seconds.
    await m.connectServers({ stubborn: sigtermIgnoringServer() }, {});
    expect(serverProcessesOf(process.pid)).toHaveLength(1);
    const first = m.disconnectAll();
    await m.disconnectAll();
    expect(childProcessesOf(process.pid)).toEqual([]);
    await first;
  });

  it("connectServers twice at once: one connection per server, both results consistent", async () => {
    const m = manager();
    const configs = { slow: slowInitServer(400), fast: echoServer() };
    const [first, second] = await Promise.all([m.connectServers(configs, {}), m.connectServers(configs, {})]);
    for (const result of [first, second]) {
      expect(result.errors.size).toBe(0);
      expect([...result.connectedServers].sort()).toEqual(["fast", "slow"]);
      expect(result.tools.map((t) => t.name).sort()).toEqual(["mcp_fast_echo", "mcp_slow_echo"]);
    }
    expect(m.getTools()).toHaveLength(2);
    // One server process per server, not two.
    expect(serverProcessesOf(process.pid)).toHaveLength(2);
  });

  it("connectServers again for a connected server is a no-op that still reports its tools", async () => {
    const m = manager();
    await m.connectServers({ s: echoServer() }, {});
    const before = m.getTools();
    const again = await m.connectServers({ s: echoServer() }, {});
    expect(again.tools).toEqual(before);
    expect(m.getTools()[0]).toBe(before[0]);
    expect(serverProcessesOf(process.pid)).toHaveLength(1);
  });

  it("disconnectServer while that server is connecting: no process left, no tools resurrected", async () => {
    const m = manager();
    const connecting = m.connectServers({ slow: slowInitServer(800), fast: echoServer() }, {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(m.getConnectionStatus("slow")).toBe("connecting");
    await m.disconnectServer("slow");
    expect(m.getConnectionStatus("slow")).toBe("disconnected");
    const result = await connecting;
    expect(result.connectedServers).toEqual(["fast"]);
    expect(result.tools.map((t) => t.name)).toEqual(["mcp_fast_echo"]);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(m.getTools().map((t) => t.name)).toEqual(["mcp_fast_echo"]);
    expect(m.getConnectionStatus("slow")).toBe("disconnected");
    expect(m.getServerStates().map((s) => s.name)).toEqual(["fast"]);
    expect(serverProcessesOf(process.pid)).toHaveLength(1);
  });

  it("disconnectAll during startup: everything cleared, late connections closed at once", async () => {
    const cache = new MCPToolCache(new Map());
    const slow = slowInitServer(600);
    await cache.set({ serverName: "slow", config: slow, cwd }, { tools: [echoDef] });
    const m = manager({ cache });
    const connecting = m.connectServers({ slow, slower: slowInitServer(900) }, {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    await m.disconnectAll();
    const result = await connecting;
    expect(result.tools).toEqual([]);
    expect(m.getTools()).toEqual([]);
    expect(m.getServerStates()).toEqual([]);
    expect(childProcessesOf(process.pid)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(m.getTools()).toEqual([]);
    expect(childProcessesOf(process.pid)).toEqual([]);
  });

  it("disconnectAll while deferred tools are out: their calls fail clearly, nothing reconnects", async () => {
    const cache = new MCPToolCache(new Map());
    const slow = slowInitServer(800);
    await cache.set({ serverName: "slow", config: slow, cwd }, { tools: [echoDef] });
    const m = manager({ cache });
    const [deferred] = (await m.connectServers({ slow }, {})).tools;
    expect(deferred).toBeInstanceOf(DeferredMCPTool);
    const call = deferred!.execute("c", { message: "x" });
    await m.disconnectAll();
    expect(textOf(await call)).toMatch(/^MCP error: .*"slow"/);
    expect(textOf(await deferred!.execute("c", { message: "x" }))).toMatch(/^MCP error: .*"slow"/);
    expect(childProcessesOf(process.pid)).toEqual([]);
  });

  it("reload: disconnectAll then connectServers again gives working tools", async () => {
    const m = manager();
    await m.connectServers({ s: echoServer() }, {});
    await m.disconnectAll();
    expect(m.getTools()).toEqual([]);
    const result = await m.connectServers({ s: echoServer() }, {});
    expect(textOf(await result.tools[0]!.execute("c", { message: "again" }))).toBe("again");
  });

  it("Symbol.asyncDispose closes everything", async () => {
    {
      await using m = new MCPManager(cwd, { cache: null });
      await m.connectServers({ s: echoServer() }, {});
      expect(serverProcessesOf(process.pid)).toHaveLength(1);
    }
    expect(childProcessesOf(process.pid)).toEqual([]);
  });
});

describe("events", () => {
  it("arrive in order: connecting, connected, tools:changed; failed; disconnected", async () => {
    const m = manager();
    const events = recordEvents(m);
    await m.connectServers({ ok: echoServer() }, {});
    expect(events).toEqual(["server:connecting ok", "server:connected ok", "tools:changed ok"]);
    events.length = 0;
    await m.connectServers({ bad: exitServer(1) }, {});
    expect(events).toEqual(["server:connecting bad", "server:failed bad"]);
    events.length = 0;
    await m.disconnectServer("ok");
    expect(events).toEqual(["server:disconnected ok", "tools:changed ok"]);
  });

  it("carry their payloads, and on() returns an unsubscribe", async () => {
    const m = manager();
    const connected: Array<{ name: string; ms: number; toolCount: number }> = [];
    const off = m.on("server:connected", (payload) => connected.push(payload));
    await m.connectServers({ one: echoServer() }, {});
    off();
    await m.connectServers({ two: echoServer() }, {});
    expect(connected).toHaveLength(1);
    expect(connected[0]).toMatchObject({ name: "one", toolCount: 1 });
    expect(connected[0]!.ms).toBeGreaterThanOrEqual(0);
  });

  it("deferred then live: tools:changed twice, tool objects replaced", async () => {
    const cache = new MCPToolCache(new Map());
    const slow = slowInitServer(500);
    await cache.set({ serverName: "slow", config: slow, cwd }, { tools: [echoDef] });
    const m = manager({ cache });
    const events = recordEvents(m);
    const live = new Promise<void>((resolve) => m.on("server:connected", () => resolve()));
    await m.connectServers({ slow }, {});
    await live;
    expect(events).toEqual([
      "server:connecting slow",
      "tools:changed slow",
      "server:connected slow",
      "tools:changed slow",
    ]);
  });
});

describe("waitForConnection", () => {
  it("rejects clearly for an unknown server and for a failed one", async () => {
    const m = manager();
    await m.connectServers({ bad: exitServer(4), good: echoServer() }, {});
    await expect(m.waitForConnection("nope")).rejects.toMatchObject({ code: "UNKNOWN_SERVER" });
    await expect(m.waitForConnection("nope")).rejects.toThrow(/nope.*known: bad, good/);
    await expect(m.waitForConnection("bad")).rejects.toThrow(/bad/);
    const connection = await m.waitForConnection("good");
    expect(connection.name).toBe("good");
  });
});
