import { MCPToolCache } from "@mcp-rt/cache";
import type { MCPServerConfig } from "@mcp-rt/config";
import { crashAfterInitServer, echoServer, exitServer, hangingServer, slowInitServer } from "@mcp-rt/testing";
import { expect, it } from "vitest";
import { DeferredMCPTool, type MCPManager, MCPTool } from "../src/index.js";
import {
  describeStartupModes,
  echoDefinition as echoDef,
  nextEvent,
  recordEvents,
  recordingLogger,
  textOf,
} from "./helpers.js";

// Every kind of server in one connectServers call, as a real agent meets them.
const cwd = process.cwd();

function servers(slowMs: number, hangTimeoutMs: number): Record<string, MCPServerConfig> {
  return {
    fast: echoServer(),
    slow: slowInitServer(slowMs),
    hangs: { ...hangingServer(), timeout: hangTimeoutMs },
    crashes: crashAfterInitServer(),
    exits: exitServer(3),
    invalid: { command: "" } as MCPServerConfig,
  };
}

const statusOf = (m: MCPManager) => Object.fromEntries(m.getServerStates().map((s) => [s.name, s.status]));
const eventsOf = (events: string[], name: string) =>
  events.filter((e) => e.endsWith(` ${name}`)).map((e) => e.split(" ")[0]);

// Every server starts at once here, as these timings assume (the start queue has its own tests).
const ALL_AT_ONCE = { maxConcurrentStarts: Number.POSITIVE_INFINITY };

describeStartupModes("fast, slow, hanging, crashing, exiting and invalid servers together", (manager) => {
  it("with a warm cache: returns after the gate with deferred tools; each server then settles on its own", async () => {
    const configs = servers(2000, 3000);
    const cache = new MCPToolCache(new Map());
    for (const [name, config] of Object.entries(configs))
      await cache.set({ serverName: name, config, cwd }, { tools: [echoDef] });
    const logger = recordingLogger();
    // The design document's manual model: a server that dies stays down (reconnecting is in resilience-*.test.ts).
    const m = manager({ ...ALL_AT_ONCE, cache, logger, reconnect: false });
    const events = recordEvents(m);

    const started = performance.now();
    const connecting = m.connectServers(configs, {});
    expect(statusOf(m)).toEqual({
      fast: "connecting",
      slow: "connecting",
      hangs: "connecting",
      crashes: "connecting",
      exits: "connecting",
      invalid: "failed",
    });
    const result = await connecting;
    // The 250 ms gate plus overhead, far below the 2 s server and the 3 s timeout.
    expect(performance.now() - started).toBeLessThan(1000);
    expect([...result.errors.keys()]).toContain("invalid");
    expect(result.errors.get("invalid")?.message).toMatch(/"invalid".*command/);
    const slow = result.tools.find((t) => t.name === "mcp_slow_echo");
    const hangs = result.tools.find((t) => t.name === "mcp_hangs_echo");
    expect(slow).toBeInstanceOf(DeferredMCPTool);
    expect(hangs).toBeInstanceOf(DeferredMCPTool);
    expect(result.tools.some((t) => t.name.startsWith("mcp_invalid"))).toBe(false);
    const states = Object.fromEntries(m.getServerStates().map((s) => [s.name, s]));
    expect(states.slow).toMatchObject({ status: "connecting", deferred: true, toolCount: 1 });
    expect(states.hangs).toMatchObject({ status: "connecting", deferred: true, toolCount: 1 });
    expect(states.invalid).toMatchObject({ status: "failed", lastError: { code: "CONFIG_INVALID" } });

    // Called before its server is up, the deferred tool waits for it, then answers.
    const out = await slow!.execute("c1", { message: "late hello" });
    expect(textOf(out)).toBe("late hello");
    expect(performance.now() - started).toBeGreaterThan(1900);
    // The hanging server's deferred tool fails with its timeout, as tool content.
    const hung = await hangs!.execute("c2", { message: "x" });
    expect(hung.isError).toBe(true);
    expect(textOf(hung)).toMatch(/^MCP error: .*"hangs".*3000 ms/);
    await expect.poll(() => m.getConnectionStatus("crashes"), { timeout: 5000 }).toBe("disconnected");
    // Stdio starts take turns (two at a time here): the exiting one may still be waiting for its turn.
    await expect.poll(() => statusOf(m).exits, { timeout: 10_000 }).toBe("failed");

    expect(statusOf(m)).toMatchObject({
      fast: "connected",
      slow: "connected",
      hangs: "failed",
      exits: "failed",
      invalid: "failed",
    });
    expect(["failed", "disconnected"]).toContain(statusOf(m).crashes);
    // Live tools replaced the cached ones; failed servers' tools are gone.
    expect(m.getTools().find((t) => t.name === "mcp_slow_echo")).toBeInstanceOf(MCPTool);
    const owners = new Set(m.getTools().map((t) => m.getToolOwner(t.name)?.server));
    expect(owners.has("hangs")).toBe(false);
    expect(owners.has("exits")).toBe(false);
    // After a call the tool answers through the live connection.
    expect(
      textOf(
        await m
          .getTools()
          .find((t) => t.name === "mcp_slow_echo")!
          .execute("c3", { message: "again" }),
      ),
    ).toBe("again");

    expect(eventsOf(events, "slow")).toEqual([
      "server:connecting",
      "tools:changed",
      "server:connected",
      "tools:changed",
    ]);
    expect(eventsOf(events, "hangs")).toEqual([
      "server:connecting",
      "tools:changed",
      "server:failed",
      "tools:changed",
    ]);
    expect(eventsOf(events, "invalid")).toEqual(["server:failed"]);
    // A failure not reported in `errors` is logged, once.
    const warned = (name: string) =>
      logger.lines.filter((l) => l.level === "warn" && l.message.includes(`"${name}"`));
    expect(warned("hangs")).toHaveLength(1);
    expect(warned("invalid")).toHaveLength(0);
    for (const name of ["exits", "crashes"])
      expect(warned(name).length + (result.errors.has(name) ? 1 : 0)).toBe(1);
  });

  it("without a cache: waits for the slow server, reports every failure, including a drop during the wait", async () => {
    const logger = recordingLogger();
    const m = manager({ ...ALL_AT_ONCE, cache: new MCPToolCache(new Map()), logger, reconnect: false });
    const started = performance.now();
    const result = await m.connectServers(servers(1500, 800), {});
    expect(performance.now() - started).toBeGreaterThan(1400);
    expect(result.connectedServers.sort()).toEqual(["fast", "slow"]);
    expect(result.tools.filter((t) => t instanceof DeferredMCPTool)).toEqual([]);
    expect(result.errors.get("hangs")?.message).toMatch(/"hangs".*800 ms/);
    expect(result.errors.get("exits")?.message).toMatch(/"exits".*code 3/);
    expect(result.errors.get("invalid")?.message).toMatch(/"invalid"/);
    // It answered initialize and tools/list, then died while the slow server was still starting.
    expect(result.errors.get("crashes")?.message).toMatch(/"crashes"/);
    expect(m.getServerStates().find((s) => s.name === "crashes")?.lastError?.code).toBe("TRANSPORT_CLOSED");
    // Everything the caller got in `errors` is not logged again.
    expect(logger.lines.filter((l) => l.level === "warn")).toEqual([]);
    const crashed = result.tools.find((t) => t.name === "mcp_crashes_echo");
    if (crashed)
      expect(textOf(await crashed.execute("c", { message: "x" }))).toMatch(/^MCP error: server "crashes"/);
  });

  it("without a cache and with maxStartupWaitMs: returns at the bound; the hanging server fails later, logged once", async () => {
    const logger = recordingLogger();
    const m = manager({ ...ALL_AT_ONCE, logger, maxStartupWaitMs: 400 });
    const started = performance.now();
    const failed = nextEvent(m, "server:failed", "hangs");
    const result = await m.connectServers({ hangs: { ...hangingServer(), timeout: 1500 } }, {});
    expect(performance.now() - started).toBeLessThan(1400);
    expect(result.errors.size).toBe(0);
    expect(m.getConnectionStatus("hangs")).toBe("connecting");
    expect((await failed).error.code).toBe("CONNECT_TIMEOUT");
    expect(logger.lines.filter((l) => l.level === "warn").map((l) => l.message)).toEqual([
      expect.stringMatching(/"hangs" failed after startup/),
    ]);
  });
});
