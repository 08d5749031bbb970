import { MCPToolCache } from "@mcp-rt/cache";
import type { MCPServerConfig } from "@mcp-rt/config";
import {
  crashAfterInitServer,
  crashOnCallServer,
  echoServer,
  exitServer,
  hangingServer,
  slowInitServer,
} from "@mcp-rt/testing";
import { expect, it } from "vitest";
import { DeferredMCPTool, MCPTool } from "../src/index.js";
import {
  describeStartupModes,
  echoDefinition as echoDef,
  nextEvent,
  recordEvents,
  recordingLogger,
  textOf,
} from "./helpers.js";

const cwd = process.cwd();

describeStartupModes("connectServers: the failure modes of the README", (manager) => {
  it("returns live tools of a fast server, named mcp_<server>_<tool>, that call through", async () => {
    const m = manager();
    const result = await m.connectServers({ fast: echoServer() }, {});
    expect(result.errors.size).toBe(0);
    expect(result.connectedServers).toEqual(["fast"]);
    expect(result.tools.map((t) => t.name)).toEqual(["mcp_fast_echo"]);
    const [tool] = result.tools;
    expect(tool).toBeInstanceOf(MCPTool);
    expect(tool!.label).toBe("fast/echo");
    expect(tool!.parameters).toMatchObject({ properties: { message: { type: "string" } } });
    const out = await tool!.execute("call-1", { message: "hi" });
    expect(out.content).toEqual([{ type: "text", text: "hi" }]);
    expect(out.details).toMatchObject({ serverName: "fast", mcpToolName: "echo", isError: false });
    expect(m.getConnectionStatus("fast")).toBe("connected");
  });

  it("invalid server config: skipped, its validation error recorded, the others go on", async () => {
    const m = manager();
    const events = recordEvents(m);
    const result = await m.connectServers(
      { broken: { command: "", timeout: -5 } as MCPServerConfig, good: echoServer() },
      {},
    );
    expect(result.errors.get("broken")?.message).toMatch(/broken.*invalid config/);
    expect(result.errors.get("broken")?.message).toMatch(/timeout/);
    expect(result.errors.get("broken")?.code).toBe("CONFIG_INVALID");
    expect(result.problems).toMatchObject([
      { kind: "server", server: "broken", error: { code: "CONFIG_INVALID" } },
    ]);
    expect(result.connectedServers).toEqual(["good"]);
    expect(result.tools.map((t) => t.name)).toEqual(["mcp_good_echo"]);
    expect(events).toContain("server:failed broken");
    expect(events).not.toContain("server:connecting broken");
    const state = m.getServerStates().find((s) => s.name === "broken");
    expect(state).toMatchObject({ status: "failed", toolCount: 0, lastError: { code: "CONFIG_INVALID" } });
  });

  it("connect timeout and init failure: errors recorded, the others go on", async () => {
    const m = manager();
    const started = performance.now();
    const result = await m.connectServers(
      {
        hangs: { ...hangingServer(), timeout: 1000 },
        exits: exitServer(3),
        good: echoServer(),
      },
      {},
    );
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.connectedServers).toEqual(["good"]);
    expect(result.errors.get("hangs")?.message).toMatch(/1000/);
    expect(result.errors.get("exits")?.message).toMatch(/exits/);
    const states = Object.fromEntries(m.getServerStates().map((s) => [s.name, s]));
    expect(states.hangs).toMatchObject({ status: "failed", lastError: { code: "CONNECT_TIMEOUT" } });
    expect(states.exits?.status).toBe("failed");
    expect(states.exits?.lastError?.stderrTail).toBeTruthy();
    expect(states.good).toMatchObject({ status: "connected", toolCount: 1, deferred: false });
    expect(states.good?.connectedMs).toBeGreaterThanOrEqual(0);
  });

  it("a server that crashes right after initialize never stays connected, and its tools fail with MCP error", async () => {
    // The design document's manual model; with reconnecting on, see resilience-reconnect.test.ts.
    const m = manager({ reconnect: false });
    const result = await m.connectServers({ crashy: crashAfterInitServer(), good: echoServer() }, {});
    expect(result.connectedServers).toContain("good");
    // It dies during tools/list (an error) or just after it (a drop): either way it ends up not connected.
    await expect.poll(() => m.getConnectionStatus("crashy"), { timeout: 5000 }).toBe("disconnected");
    const state = m.getServerStates().find((s) => s.name === "crashy")!;
    expect(["failed", "disconnected"]).toContain(state.status);
    expect(state.lastError?.message).toMatch(/crashy/);
    for (const tool of m.getTools().filter((t) => m.getToolOwner(t.name)?.server === "crashy")) {
      expect(textOf(await tool.execute("c", { message: "x" }))).toMatch(/^MCP error: server "crashy"/);
    }
    expect(m.getConnectionStatus("good")).toBe("connected");
  });

  it("tools/list pending at the gate with a cache hit: deferred tools at once, callable once the server is up", async () => {
    const cache = new MCPToolCache(new Map());
    const slow = slowInitServer(2000);
    const fast = echoServer();
    await cache.set({ serverName: "slow", config: slow, cwd }, { tools: [echoDef] });
    // Warm for `fast` too: on a busy machine even a fast server may miss the 250 ms gate.
    await cache.set({ serverName: "fast", config: fast, cwd }, { tools: [echoDef] });
    const m = manager({ cache });
    const started = performance.now();
    const result = await m.connectServers({ slow, fast }, {});
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result.errors.size).toBe(0);
    expect(result.tools.map((t) => t.name)).toEqual(["mcp_slow_echo", "mcp_fast_echo"]);
    const deferred = result.tools.find((t) => t.name === "mcp_slow_echo");
    expect(deferred).toBeInstanceOf(DeferredMCPTool);
    expect(m.getConnectionStatus("slow")).toBe("connecting");
    expect(m.getServerStates().find((s) => s.name === "slow")).toMatchObject({
      deferred: true,
      toolCount: 1,
    });

    const out = await deferred!.execute("c", { message: "late hello" });
    expect(textOf(out)).toBe("late hello");
    expect(performance.now() - started).toBeGreaterThan(1500);
    expect(m.getConnectionStatus("slow")).toBe("connected");
    // The live list replaced the cached slice.
    expect(m.getTools().find((t) => t.name === "mcp_slow_echo")).toBeInstanceOf(MCPTool);
    expect(m.getServerStates().find((s) => s.name === "slow")?.deferred).toBe(false);
  });

  it("defers every pending server's cached tools together: the first tools:changed already sees them all", async () => {
    const cache = new MCPToolCache(new Map());
    const configs = { a: slowInitServer(3000), b: slowInitServer(3000), c: slowInitServer(3000) };
    for (const [name, config] of Object.entries(configs))
      await cache.set({ serverName: name, config, cwd }, { tools: [echoDef] });
    const m = manager({ cache, startupTimeoutMs: 100 });
    const seen: number[] = [];
    m.on("tools:changed", () => seen.push(m.getTools().length));
    const result = await m.connectServers(configs, {});
    expect(result.tools.map((t) => t.name)).toEqual(["mcp_a_echo", "mcp_b_echo", "mcp_c_echo"]);
    // One rebuild of the tools for the three servers, then one event per server.
    expect(seen).toEqual([3, 3, 3]);
  });

  it("a server without a cache entry starts without waiting for the other servers' cache reads", async () => {
    let slowReadDone = false;
    class SlowReadCache extends MCPToolCache {
      override async read(...args: Parameters<MCPToolCache["read"]>) {
        if (args[0].serverName !== "slowRead") return super.read(...args);
        await new Promise((resolve) => setTimeout(resolve, 3000));
        slowReadDone = true;
        return super.read(...args);
      }
    }
    const cache = new SlowReadCache(new Map(), { readTimeoutMs: 10_000 });
    const slowRead = slowInitServer(200);
    await cache.set({ serverName: "slowRead", config: slowRead, cwd }, { tools: [echoDef] });
    const m = manager({ cache, startupTimeoutMs: 20_000 });
    const connected = nextEvent(m, "server:connected", "miss");
    const started = m.connectServers({ slowRead, miss: echoServer() }, {});
    await connected;
    expect(slowReadDone).toBe(false);
    await started;
  });

  it("tools/list pending at the gate without a cache: startup waits for it", async () => {
    const m = manager({ cache: new MCPToolCache(new Map()) });
    const started = performance.now();
    const result = await m.connectServers({ slow: slowInitServer(700) }, {});
    expect(performance.now() - started).toBeGreaterThan(600);
    expect(result.connectedServers).toEqual(["slow"]);
    expect(result.tools.map((t) => t.name)).toEqual(["mcp_slow_echo"]);
    expect(result.tools[0]).toBeInstanceOf(MCPTool);
  });

  it("returns at once when everything settles before the gate", async () => {
    const m = manager({ startupTimeoutMs: 5000 });
    const started = performance.now();
    await m.connectServers({ a: echoServer(), b: exitServer(1) }, {});
    expect(performance.now() - started).toBeLessThan(4000);
  });

  it("maxStartupWaitMs bounds the hard wait; the server stays connecting and its tools arrive through tools:changed", async () => {
    const m = manager({ maxStartupWaitMs: 300 });
    const started = performance.now();
    const result = await m.connectServers({ slow: slowInitServer(1500) }, {});
    expect(performance.now() - started).toBeLessThan(1200);
    expect(result.tools).toEqual([]);
    expect(result.errors.size).toBe(0);
    expect(m.getConnectionStatus("slow")).toBe("connecting");
    await nextEvent(m, "tools:changed", "slow");
    expect(m.getTools().map((t) => t.name)).toEqual(["mcp_slow_echo"]);
    expect(m.getConnectionStatus("slow")).toBe("connected");
  });

  it("late background tool load fails: logged once, only after the gate; deferred tools then fail clearly", async () => {
    const cache = new MCPToolCache(new Map());
    const hangs = { ...hangingServer(), timeout: 1500 };
    await cache.set({ serverName: "hangs", config: hangs, cwd }, { tools: [echoDef] });
    const logger = recordingLogger();
    const m = manager({ cache, logger });
    const result = await m.connectServers({ hangs }, {});
    expect(result.errors.size).toBe(0);
    const [deferred] = result.tools;
    expect(deferred).toBeInstanceOf(DeferredMCPTool);
    expect(logger.lines.filter((l) => l.level === "warn")).toEqual([]);

    const failed = nextEvent(m, "server:failed", "hangs");
    const out = await deferred!.execute("c", { message: "x" });
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/^MCP error: .*hangs/);
    expect((await failed).error.code).toBe("CONNECT_TIMEOUT");
    const warnings = logger.lines.filter((l) => l.level === "warn" && l.message.includes("hangs"));
    expect(warnings).toHaveLength(1);
    expect(m.getTools()).toEqual([]);
    expect(m.getServerStates()[0]).toMatchObject({ name: "hangs", status: "failed" });
  });

  it("a dropped server given an invalid config: its leftover tools go, the config error is its state", async () => {
    // No automatic reconnect attempt may be under way when the new config arrives.
    const m = manager({ reconnect: false });
    const { tools } = await m.connectServers({ crashy: crashOnCallServer() }, {});
    const disconnected = nextEvent(m, "server:disconnected", "crashy");
    await tools.find((t) => t.name === "mcp_crashy_crash")!.execute("c", {});
    await disconnected;
    expect(m.getTools().length).toBeGreaterThan(0);
    const changed = nextEvent(m, "tools:changed", "crashy");
    const result = await m.connectServers({ crashy: { command: "" } as MCPServerConfig }, {});
    await changed;
    expect(result.errors.get("crashy")?.message).toMatch(/invalid config/);
    expect(m.getTools()).toEqual([]);
    expect(m.getServerStates()[0]).toMatchObject({ status: "failed", lastError: { code: "CONFIG_INVALID" } });
  });

  it("a failure reported in errors is not logged again", async () => {
    const logger = recordingLogger();
    const m = manager({ logger });
    const result = await m.connectServers({ exits: exitServer(2) }, {});
    expect(result.errors.has("exits")).toBe(true);
    expect(logger.lines.filter((l) => l.level === "warn")).toEqual([]);
  });

  it("transport drops at run time: status leaves connected at once, calls fail fast with MCP error", async () => {
    const logger = recordingLogger();
    const m = manager({ logger });
    const result = await m.connectServers({ crashy: crashOnCallServer(), other: echoServer() }, {});
    const crash = result.tools.find((t) => t.name === "mcp_crashy_crash")!;
    const echo = result.tools.find((t) => t.name === "mcp_crashy_echo")!;
    const disconnected = nextEvent(m, "server:disconnected", "crashy");
    const out = await crash.execute("c", {});
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/^MCP error:/);
    expect((await disconnected).reason).toMatch(/crashy/);
    expect(m.getConnectionStatus("crashy")).toBe("disconnected");
    const started = performance.now();
    const after = await echo.execute("c2", { message: "still there?" });
    expect(performance.now() - started).toBeLessThan(200);
    expect(textOf(after)).toMatch(/^MCP error: server "crashy" disconnected/);
    expect(m.getServerStates().find((s) => s.name === "crashy")?.lastError?.code).toBe("TRANSPORT_CLOSED");
    // A drop after startup is nobody's `errors`: it is logged, once.
    expect(logger.lines.filter((l) => l.level === "warn" && l.message.includes('"crashy"'))).toHaveLength(1);
    // The other server is untouched, and the dead one can be connected again (it is no longer active).
    expect(m.getConnectionStatus("other")).toBe("connected");
    const again = await m.connectServers({ crashy: crashOnCallServer() }, {});
    expect(again.connectedServers).toEqual(["crashy"]);
    expect(textOf(await echo.execute("c3", { message: "back" }))).toBe("back");
  });
});
