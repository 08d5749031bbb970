import type { MCPConnectionCloseEvent, MCPServerConnection } from "@mcp-rt/client";
import { McpRtError } from "@mcp-rt/config";
import { TaskGroup } from "@mcp-rt/config/util";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ToolApprovalKeeper } from "../src/approvals/approval-keeper.js";
import { DEFAULT_APPROVAL_POLICIES } from "../src/approvals/approval-policy.js";
import { loadClient } from "../src/client-module.js";
import { createEmitter } from "../src/event-emitter.js";
import type { MCPManagerEvents } from "../src/index.js";
import type { AttemptResult, ConnectAndList } from "../src/server/connect-and-list.js";
import { resolveReconnectOptions } from "../src/server/reconnect-policy.js";
import { resolveServerLimits } from "../src/server/server-limits.js";
import { ServerSupervisor } from "../src/server/server-supervisor.js";
import type { SupervisorContext } from "../src/server/supervisor-context.js";
import { recordingLogger } from "./helpers.js";

// The scripted connections are not the client's: closing one (the reaping after a drop) has nothing to close.
const closeConnection = vi.hoisted(() => vi.fn(async () => {}));
vi.mock("@mcp-rt/client", async (original) => ({
  ...(await original<typeof import("@mcp-rt/client")>()),
  closeConnection,
}));

beforeAll(async () => {
  // Done by the first real attempt; the supervisor closes a dropped connection with the loaded client.
  await loadClient();
});

/** A connection that is only watched: it lets the test close it, as a server that went away would. */
function scriptedConnection(): MCPServerConnection & { goAway(reason: string): void } {
  const closed = new Set<(event: MCPConnectionCloseEvent) => void>();
  const nothing = () => () => {};
  return {
    name: "s",
    config: { command: "node" },
    closed: false,
    instructions: undefined,
    eraVerdict: { era: "legacy", protocolVersion: "2025-11-25", decidedAt: 0 },
    eraDecision: { how: "probe", text: "it answered -32601" },
    onClose(listener: (event: MCPConnectionCloseEvent) => void) {
      closed.add(listener);
      return () => closed.delete(listener);
    },
    onError: nothing,
    onToolsChanged: nothing,
    onListChanged: nothing,
    onResourceUpdated: nothing,
    goAway(reason: string) {
      for (const listener of [...closed]) listener({ reason, expected: false } as MCPConnectionCloseEvent);
    },
  } as unknown as MCPServerConnection & { goAway(reason: string): void };
}

/** Attempts that come to `results`, in order, with no server: a `listed` one hands its connection over first. */
function scripted(results: AttemptResult[]): ConnectAndList & { left(): number } {
  const run = async function* () {
    const result = results.shift();
    if (!result) throw new Error("no scripted attempt left");
    if (result.kind === "listed") yield { connection: result.connection, resolvedFingerprint: "scripted" };
    return result;
  };
  return Object.assign(run, { left: () => results.length });
}

/** A supervisor's context with no cache, no pace and a small, quick circuit breaker (two attempts, one burst). */
function contextOf(connectAndList: ConnectAndList, events: string[]) {
  const logger = recordingLogger();
  const emitter = createEmitter<MCPManagerEvents>((error) => logger.error("a listener threw", error));
  for (const name of [
    "server:connecting",
    "server:connected",
    "server:disconnected",
    "server:reconnecting",
    "server:failed",
    "tools:changed",
  ] as const) {
    emitter.on(name, (payload) => {
      const attempt = "attempt" in payload ? ` ${payload.attempt}` : "";
      events.push(`${name}${attempt}`);
    });
  }
  const tasks = new TaskGroup();
  const context: SupervisorContext = {
    settings: {
      cwd: process.cwd(),
      authStorage: undefined,
      user: "test",
      maxMessageBytes: 1024 * 1024,
      onElicitation: undefined,
      openUrl: undefined,
      signInTimeoutMs: undefined,
      logger,
    },
    limits: resolveServerLimits({}),
    reconnect: resolveReconnectOptions({
      initialDelayMs: 1,
      maxDelayMs: 10,
      maxAttempts: 2,
      maxFailedBursts: 1,
      random: () => 0,
    }),
    cache: { get: async () => null },
    emitter,
    tasks,
    pace: {
      track() {},
      beforeConnect: async () => ({ release() {} }),
      beforeCacheWrite: async () => {},
      hurry() {},
    },
    catalog: { invalidate() {} },
    approvals: new ToolApprovalKeeper({
      store: null,
      policies: DEFAULT_APPROVAL_POLICIES,
      onHeld: (event) => emitter.emit("tools:held", event),
      tasks,
      logger,
    }),
    otherTools: () => new Set(),
    connectAndList,
  };
  return { context, logger, tasks };
}

describe("ServerSupervisor, driven by scripted attempts", () => {
  it("drop → retry → give up: a server that does not come back is failed by the circuit breaker", async () => {
    const connection = scriptedConnection();
    const refused = (n: number) => new McpRtError("INIT_FAILED", `MCP server "s" failed to start (${n})`);
    const attempts = scripted([
      {
        kind: "listed",
        connection,
        tools: [{ name: "t", inputSchema: { type: "object" } }],
        content: {},
        contentFailures: [],
      },
      { kind: "failed", error: refused(1) },
      { kind: "failed", error: refused(2) },
    ]);
    const events: string[] = [];
    const { context, logger, tasks } = contextOf(attempts, events);
    const supervisor = new ServerSupervisor("s", { command: "node" }, context);

    await supervisor.start().done;
    expect(supervisor.record.phase).toBe("connected");
    expect([...supervisor.record.toolNames]).toEqual(["t"]);

    connection.goAway("the server exited");
    // Dropped at once: its tools stay (calls fail fast) while it is brought back.
    expect(supervisor.record.phase).toBe("backing-off");
    expect(supervisor.record.connection).toBeUndefined();
    expect(closeConnection).toHaveBeenCalledWith(connection);

    await expect.poll(() => supervisor.record.phase).toBe("failed");
    expect(attempts.left()).toBe(0);
    expect(events).toEqual([
      "server:connecting",
      "server:connected",
      "tools:changed",
      "server:disconnected",
      "server:reconnecting 1",
      "server:reconnecting 2",
      "server:failed",
      "tools:changed",
    ]);
    const { lastError } = supervisor.record;
    expect(lastError?.code).toBe("INIT_FAILED");
    expect(lastError?.message).toMatch(
      /did not come back after 2 reconnect attempts \(1 failed bursts\); gave up\. Last error: MCP server "s" failed to start \(2\)/,
    );
    expect(supervisor.record.definitions).toEqual([]);
    expect(logger.lines.filter((line) => line.level === "warn").map((line) => line.message)).toEqual([
      lastError?.message,
    ]);
    // Given up for good: no timer is left, nothing else runs.
    expect(supervisor.record.inOutage).toBe(false);
    await tasks.idle();
    expect(attempts.left()).toBe(0);
  });
});
