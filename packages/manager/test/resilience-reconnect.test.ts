import { createHook } from "node:async_hooks";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MCPStdioServerConfig } from "@mcp-rt/config";
import { echoServer, fixtureServerPath, readPidFile, slowInitServer } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CustomTool, MCPManager } from "../src/index.js";
import { nextEvent, recordEvents, recordingLogger, textOf, useManagers } from "./helpers.js";

const manager = useManagers();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-rt-reconnect-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const toolOf = (m: MCPManager, name: string): CustomTool => m.getTools().find((t) => t.name === name)!;
const stateOf = (m: MCPManager, name: string) => m.getServerStates().find((s) => s.name === name);
const pidOf = async (m: MCPManager, name: string): Promise<number> => (await m.waitForConnection(name)).pid!;

/**
 * The fixture behind a shell that logs each start to `<dir>/starts`. While
 * `<dir>/dead` exists it fails at once instead (a server that can be kept
 * down); while `<dir>/flaky` exists it crashes right after `initialize`.
 */
function killableServer(): MCPStdioServerConfig {
  const script = [
    `echo start >> "$0/starts"`,
    `if [ -e "$0/dead" ]; then echo "down for maintenance" >&2; exit 1; fi`,
    `if [ -e "$0/flaky" ]; then exec "$@" --crash-after-init; fi`,
    `exec "$@"`,
  ].join("; ");
  return { command: "/bin/sh", args: ["-c", script, dir, process.execPath, fixtureServerPath] };
}
const startsOf = async (): Promise<number> =>
  (await readFile(join(dir, "starts"), "utf8").catch(() => "")).split("\n").filter(Boolean).length;

/** Timers of the outage (the next attempt's) that are neither cleared nor fired yet. */
function trackSchedulerTimers(): { created(): number; live(): number; stop(): void } {
  const live = new Set<number>();
  let created = 0;
  const hook = createHook({
    init(id, type) {
      if (type !== "Timeout" || !new Error().stack?.includes("/outage.")) return;
      created++;
      live.add(id);
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  return { created: () => created, live: () => live.size, stop: () => hook.disable() };
}

describe("automatic reconnect", () => {
  it("a server killed at run time: leaves connected at once, calls fail fast, then it comes back", async () => {
    const pidFile = join(dir, "pids");
    const m = manager({ reconnect: { initialDelayMs: 200, maxDelayMs: 1000 } });
    await m.connectServers({ s: echoServer({ pidFile }), other: echoServer() }, {});
    const echo = toolOf(m, "mcp_s_echo");
    const events = recordEvents(m);
    const pid = await pidOf(m, "s");

    const disconnected = nextEvent(m, "server:disconnected", "s");
    const connected = nextEvent(m, "server:connected", "s");
    process.kill(pid, "SIGKILL");
    expect((await disconnected).reason).toMatch(/"s".*SIGKILL/);
    expect(m.getConnectionStatus("s")).not.toBe("connected");
    expect(stateOf(m, "s")).toMatchObject({
      status: "reconnecting",
      reconnectAttempt: 1,
      toolCount: 1,
      lastError: { code: "TRANSPORT_CLOSED" },
    });
    const started = performance.now();
    const failed = await echo.execute("c1", { message: "anyone?" });
    expect(performance.now() - started).toBeLessThan(200);
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/^MCP error: server "s" disconnected: .*being reconnected \(attempt 1\)/);

    await connected;
    await expect
      .poll(() => events.filter((e) => e.endsWith(" s")))
      .toEqual(["server:disconnected s", "server:reconnecting s", "server:connected s", "tools:changed s"]);
    expect(stateOf(m, "s")).toMatchObject({ status: "connected", toolCount: 1 });
    expect(stateOf(m, "s")?.reconnectAttempt).toBeUndefined();
    const pids = readPidFile(pidFile);
    expect(pids).toHaveLength(2);
    expect(pids[1]).not.toBe(pid);
    // The tool kept by the caller and the new one both work; the other server never noticed.
    expect(textOf(await echo.execute("c2", { message: "back" }))).toBe("back");
    expect(textOf(await toolOf(m, "mcp_s_echo").execute("c3", { message: "new" }))).toBe("new");
    expect(events.filter((e) => e.endsWith(" other"))).toEqual([]);
  });

  it("a server that stays dead: bounded attempts, then failed by the circuit breaker, no timer left", async () => {
    const timers = trackSchedulerTimers();
    try {
      const m = manager({
        reconnect: { initialDelayMs: 20, maxDelayMs: 100, maxAttempts: 3, maxFailedBursts: 2 },
      });
      await m.connectServers({ s: killableServer() }, {});
      const attempts: number[] = [];
      m.on("server:reconnecting", ({ attempt }) => attempts.push(attempt));
      const failed = nextEvent(m, "server:failed", "s");
      const toolsGone = nextEvent(m, "tools:changed", "s");
      await writeFile(join(dir, "dead"), "");
      process.kill(await pidOf(m, "s"), "SIGKILL");

      const { error } = await failed;
      await toolsGone;
      expect(attempts).toEqual([1, 2, 3, 4, 5, 6]);
      expect(error.code).toBe("INIT_FAILED");
      expect(error.message).toMatch(/"s" did not come back after 6 reconnect attempts \(2 failed bursts\)/);
      expect(error.message).toMatch(/reload/);
      const state = stateOf(m, "s");
      expect(state).toMatchObject({ status: "failed", toolCount: 0, lastError: { code: "INIT_FAILED" } });
      expect(state?.lastError?.stderrTail).toMatch(/down for maintenance/);
      expect(m.getTools()).toEqual([]);
      expect(timers.created()).toBe(6);
      expect(timers.live()).toBe(0);
      // Nothing tries again on its own…
      const starts = await startsOf();
      expect(starts).toBe(1 + 6);
      await sleep(500);
      expect(await startsOf()).toBe(starts);
      await expect(m.waitForConnection("s")).rejects.toMatchObject({ code: "INIT_FAILED" });

      // …until it is connected on purpose, which resets the breaker.
      await rm(join(dir, "dead"));
      const again = await m.connectServers({ s: killableServer() }, {});
      expect(again.connectedServers).toEqual(["s"]);
      expect(stateOf(m, "s")?.status).toBe("connected");
    } finally {
      timers.stop();
    }
  });

  it("a server that dies right after each restart ends up failed too, logged twice in all", async () => {
    const logger = recordingLogger();
    const m = manager({
      logger,
      reconnect: { initialDelayMs: 20, maxDelayMs: 200, maxAttempts: 3, maxFailedBursts: 2 },
    });
    await m.connectServers({ s: killableServer() }, {});
    const failed = nextEvent(m, "server:failed", "s");
    await writeFile(join(dir, "flaky"), "");
    process.kill(await pidOf(m, "s"), "SIGKILL");
    const { error } = await failed;
    expect(error.message).toMatch(/"s" did not come back after 6 reconnect attempts/);
    expect(stateOf(m, "s")?.status).toBe("failed");
    expect(await startsOf()).toBe(1 + 6);
    // The first drop and the end: not one warning per restart.
    const warnings = logger.lines.filter((l) => l.level === "warn").map((l) => l.message);
    expect(warnings).toEqual([
      expect.stringMatching(/"s" stopped: .*; reconnecting$/),
      expect.stringMatching(/"s" did not come back/),
    ]);
  });

  it("reconnect: false keeps the design document's manual model", async () => {
    const pidFile = join(dir, "pids");
    const m = manager({ reconnect: false });
    await m.connectServers({ s: echoServer({ pidFile }) }, {});
    const events = recordEvents(m);
    const disconnected = nextEvent(m, "server:disconnected", "s");
    process.kill(await pidOf(m, "s"), "SIGKILL");
    await disconnected;
    await sleep(800);
    expect(events).toEqual(["server:disconnected s"]);
    expect(m.getConnectionStatus("s")).toBe("disconnected");
    expect(stateOf(m, "s")?.status).toBe("disconnected");
    expect(readPidFile(pidFile)).toHaveLength(1);
    const out = await toolOf(m, "mcp_s_echo").execute("c", { message: "x" });
    expect(textOf(out)).toMatch(/^MCP error: server "s" disconnected: .*Reconnect it/);
  });

  it("disconnectServer during the backoff: no reconnect ever happens", async () => {
    const pidFile = join(dir, "pids");
    const m = manager({ reconnect: { initialDelayMs: 300, maxDelayMs: 1000 } });
    await m.connectServers({ s: echoServer({ pidFile }) }, {});
    const events = recordEvents(m);
    const stopped = new Promise<void>((resolve) => {
      m.on("server:reconnecting", () => {
        // Waiting for the first attempt: no attempt is under way.
        expect(m.getConnectionStatus("s")).toBe("disconnected");
        expect(stateOf(m, "s")?.status).toBe("reconnecting");
        void m.disconnectServer("s").then(resolve);
      });
    });
    process.kill(await pidOf(m, "s"), "SIGKILL");
    await stopped;
    await sleep(1000);
    expect(readPidFile(pidFile)).toHaveLength(1);
    expect(events).toEqual(["server:disconnected s", "server:reconnecting s", "tools:changed s"]);
    expect(m.getServerStates()).toEqual([]);
    expect(m.getTools()).toEqual([]);
  });

  it("disconnectServer during a reconnect attempt: the attempt's process is stopped, nothing comes back", async () => {
    const pidFile = join(dir, "pids");
    const m = manager({ reconnect: { initialDelayMs: 0, maxDelayMs: 100 } });
    await m.connectServers({ s: slowInitServer(600, { pidFile }) }, {});
    const connected: string[] = [];
    m.on("server:connected", ({ name }) => connected.push(name));
    process.kill(await pidOf(m, "s"), "SIGKILL");
    // The second process starts: the attempt is under way.
    await expect.poll(() => readPidFile(pidFile).length).toBe(2);
    expect(m.getConnectionStatus("s")).toBe("connecting");
    expect(stateOf(m, "s")?.status).toBe("reconnecting");
    await m.disconnectServer("s");
    await sleep(1200);
    expect(connected).toEqual([]);
    expect(readPidFile(pidFile)).toHaveLength(2);
    expect(m.getServerStates()).toEqual([]);
  });

  it("disconnectAll cancels every pending reconnect at once", async () => {
    const pidFile = join(dir, "pids");
    // 900 ms each, not a random delay that may be shorter than the time between the two drops
    // being seen on a busy machine: then one reconnect would start before disconnectAll.
    const m = manager({ reconnect: { initialDelayMs: 1000, maxDelayMs: 2000, random: () => 0.9 } });
    await m.connectServers({ a: echoServer({ pidFile }), b: echoServer({ pidFile }) }, {});
    const reconnecting = Promise.all([
      nextEvent(m, "server:reconnecting", "a"),
      nextEvent(m, "server:reconnecting", "b"),
    ]);
    const pids = [await pidOf(m, "a"), await pidOf(m, "b")];
    for (const pid of pids) process.kill(pid, "SIGKILL");
    await reconnecting;
    const started = performance.now();
    await m.disconnectAll();
    expect(performance.now() - started).toBeLessThan(1000);
    await sleep(1200);
    expect(readPidFile(pidFile)).toHaveLength(2);
    expect(m.getServerStates()).toEqual([]);
  });

  it("connectServers during the backoff connects at once and resets the reconnect", async () => {
    // The first attempt waits 0.9 × 5000 ms: long enough to tell waiting from not waiting.
    const m = manager({ reconnect: { initialDelayMs: 5000, maxDelayMs: 10_000, random: () => 0.9 } });
    const config = echoServer();
    await m.connectServers({ s: config }, {});
    const reconnecting = nextEvent(m, "server:reconnecting", "s");
    process.kill(await pidOf(m, "s"), "SIGKILL");
    const { delayMs } = await reconnecting;
    const started = performance.now();
    const result = await m.connectServers({ s: config }, {});
    expect(result.connectedServers).toEqual(["s"]);
    expect(delayMs).toBe(4500);
    // Did not wait for the scheduled attempt.
    expect(performance.now() - started).toBeLessThan(delayMs);
    expect(stateOf(m, "s")).toMatchObject({ status: "connected" });
    expect(stateOf(m, "s")?.reconnectAttempt).toBeUndefined();
  });
});
