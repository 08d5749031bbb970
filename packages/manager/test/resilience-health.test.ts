import { createHook } from "node:async_hooks";
import { echoServer, isProcessAlive, modernServer } from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { MCPManager } from "../src/index.js";
import { nextEvent, recordEvents, textOf, useManagers } from "./helpers.js";

const manager = useManagers();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Registered after useManagers: runs before its cleanup, so stopped servers can be reaped quickly.
const stopped: number[] = [];
afterEach(() => {
  for (const pid of stopped.splice(0)) {
    for (const signal of ["SIGCONT", "SIGKILL"] as const) {
      try {
        process.kill(pid, signal);
      } catch {
        // Already gone.
      }
    }
  }
});

/** Freezes a server: it stays connected but answers nothing (SIGSTOP). */
function freeze(pid: number): void {
  process.kill(pid, "SIGSTOP");
  stopped.push(pid);
}

const pidOf = async (m: MCPManager, name: string): Promise<number> => (await m.waitForConnection(name)).pid!;

describe("health pings", () => {
  it("find a hung server: it is dropped (closed) and reconnected; a healthy one is left alone", async () => {
    const m = manager({
      healthCheckIntervalMs: 200,
      healthCheckTimeoutMs: 300,
      reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
    });
    await m.connectServers({ hung: echoServer(), fine: echoServer() }, {});
    const events = recordEvents(m);
    const pid = await pidOf(m, "hung");
    const disconnected = nextEvent(m, "server:disconnected", "hung");
    const connected = nextEvent(m, "server:connected", "hung");
    const started = performance.now();
    freeze(pid);

    const { reason } = await disconnected;
    expect(performance.now() - started).toBeLessThan(3000);
    expect(reason).toMatch(/"hung" did not answer a health-check ping within 300 ms/);
    expect(m.getConnectionStatus("hung")).not.toBe("connected");
    expect(m.getServerStates().find((s) => s.name === "hung")).toMatchObject({
      status: "reconnecting",
      lastError: { code: "REQUEST_TIMEOUT" },
    });
    await connected;
    expect(await pidOf(m, "hung")).not.toBe(pid);
    const echo = m.getTools().find((t) => t.name === "mcp_hung_echo")!;
    expect(textOf(await echo.execute("c", { message: "awake" }))).toBe("awake");
    // The frozen process was closed (SIGKILL reaches a stopped process).
    await expect.poll(() => isProcessAlive(pid), { timeout: 10_000 }).toBe(false);
    expect(events.filter((e) => e.endsWith(" fine"))).toEqual([]);
    expect(events.filter((e) => e.endsWith(" hung"))).toEqual([
      "server:disconnected hung",
      "server:reconnecting hung",
      "server:connected hung",
      "tools:changed hung",
    ]);
  });

  it("with reconnect: false a hung server is closed and stays disconnected", async () => {
    const m = manager({ healthCheckIntervalMs: 150, healthCheckTimeoutMs: 200, reconnect: false });
    await m.connectServers({ hung: echoServer() }, {});
    const pid = await pidOf(m, "hung");
    const disconnected = nextEvent(m, "server:disconnected", "hung");
    freeze(pid);
    await disconnected;
    await expect.poll(() => isProcessAlive(pid), { timeout: 10_000 }).toBe(false);
    expect(m.getServerStates()[0]).toMatchObject({
      status: "disconnected",
      lastError: { code: "REQUEST_TIMEOUT" },
    });
  });

  it("ask a 2026-07-28 server, which has no ping, with server/discover: a healthy one stays, a hung one is found", async () => {
    const m = manager({ healthCheckIntervalMs: 150, healthCheckTimeoutMs: 300, reconnect: false });
    await m.connectServers({ fine: modernServer(), hung: modernServer() }, {});
    const hung = await pidOf(m, "hung");
    await pidOf(m, "fine");
    expect(m.getServerStates().map((state) => state.protocol?.era)).toEqual(["modern", "modern"]);
    const disconnected = nextEvent(m, "server:disconnected", "hung");
    freeze(hung);
    expect((await disconnected).reason).toMatch(/"hung" did not answer a health-check ping within 300 ms/);
    // Several more checks of the healthy one.
    await sleep(600);
    expect(m.getConnectionStatus("fine")).toBe("connected");
  });

  it("count an error answer to ping as alive (a server without ping is not hung)", async () => {
    // A bare stdio MCP server that answers initialize and tools/list, and refuses ping.
    const script = `
      const rl = require("node:readline").createInterface({ input: process.stdin });
      const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
      rl.on("line", (line) => {
        const m = JSON.parse(line);
        if (m.method === "initialize") send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "no-ping", version: "1" } } });
        else if (m.method === "tools/list") send({ id: m.id, result: { tools: [] } });
        else if (m.method === "ping") { process.stderr.write("refused ping\\n"); send({ id: m.id, error: { code: -32601, message: "Method not found" } }); }
      });
      rl.on("close", () => process.exit(0));`;
    const m = manager({ healthCheckIntervalMs: 100, healthCheckTimeoutMs: 200 });
    const result = await m.connectServers({ bare: { command: process.execPath, args: ["-e", script] } }, {});
    expect(result.connectedServers).toEqual(["bare"]);
    const events = recordEvents(m);
    await sleep(700);
    const connection = await m.waitForConnection("bare");
    // It was pinged (and refused), and is still connected.
    expect(connection.stderrTail()).toMatch(/refused ping/);
    expect(m.getConnectionStatus("bare")).toBe("connected");
    expect(events).toEqual([]);
  });

  it("are off by default: a frozen server stays connected", async () => {
    const m = manager();
    await m.connectServers({ hung: echoServer() }, {});
    freeze(await pidOf(m, "hung"));
    await sleep(1000);
    expect(m.getConnectionStatus("hung")).toBe("connected");
  });

  it("leave no timer behind once everything is disconnected", async () => {
    const live = new Set<number>();
    let created = 0;
    const hook = createHook({
      init(id, type) {
        if (type !== "Timeout" || !new Error().stack?.includes("health-monitor")) return;
        created++;
        live.add(id);
      },
      destroy(id) {
        live.delete(id);
      },
    }).enable();
    try {
      const m = manager({ healthCheckIntervalMs: 100 });
      await m.connectServers({ a: echoServer(), b: echoServer() }, {});
      await sleep(350);
      expect(m.getConnectionStatus("a")).toBe("connected");
      await m.disconnectAll();
      // Destroy hooks run after the clear, on a later tick.
      await sleep(50);
      expect(created).toBe(1);
      expect(live.size).toBe(0);
    } finally {
      hook.disable();
    }
  });
});

describe("option checks", () => {
  it.each([
    [{ healthCheckIntervalMs: -1 }, /healthCheckIntervalMs: expected a number of ms/],
    [{ healthCheckIntervalMs: 1000, healthCheckTimeoutMs: 0 }, /healthCheckTimeoutMs/],
    [{ reconnect: { maxAttempts: 0 } }, /reconnect\.maxAttempts/],
  ])("new MCPManager(cwd, %o) throws CONFIG_INVALID", (options, message) => {
    expect(() => new MCPManager(process.cwd(), { cache: null, ...options })).toThrow(message);
  });
});
