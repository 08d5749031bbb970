import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { MCPServerConnection } from "@mcp-rt/client";
import { McpRtError } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import type { Attempt } from "../src/server/attempt.js";
import type { ConnectionWatch } from "../src/server/connection-watch.js";
import {
  nextPhase,
  SERVER_EVENTS,
  SERVER_PHASES,
  type ServerEvent,
  type ServerPhase,
  TRANSITIONS,
} from "../src/server/server-phase.js";
import { ServerRecord } from "../src/server/server-record.js";

const connection = {
  config: { command: "node" },
  eraDecision: { how: "probe", text: "it answered -32601" },
  eraVerdict: { era: "legacy", protocolVersion: "2025-11-25", decidedAt: 0 },
} as unknown as MCPServerConnection;
const watch = { stop() {}, activate() {} } as unknown as ConnectionWatch;
const attempt = { config: { command: "node" } } as Attempt;
const error = new McpRtError("INIT_FAILED", "x");

// The whole table, written out: a row per phase, a column per event; "-" where the event is not allowed.
// biome-ignore format: the table reads as a table
const EXPECTED: Record<ServerPhase, Record<ServerEvent, ServerPhase | "-">> = {
  idle:          { start: "connecting", handshake: "-",       listed: "-",         retry: "-",            drop: "-",            close: "-",    fail: "failed", "sign-in-needed": "needs-auth" },
  connecting:    { start: "connecting", handshake: "listing", listed: "-",         retry: "backing-off",  drop: "-",            close: "-",    fail: "failed", "sign-in-needed": "needs-auth" },
  listing:       { start: "connecting", handshake: "listing", listed: "connected", retry: "backing-off",  drop: "-",            close: "-",    fail: "failed", "sign-in-needed": "needs-auth" },
  connected:     { start: "connecting", handshake: "-",       listed: "-",         retry: "-",            drop: "backing-off",  close: "idle", fail: "failed", "sign-in-needed": "needs-auth" },
  "backing-off": { start: "connecting", handshake: "-",       listed: "-",         retry: "-",            drop: "-",            close: "-",    fail: "failed", "sign-in-needed": "needs-auth" },
  failed:        { start: "connecting", handshake: "-",       listed: "-",         retry: "-",            drop: "-",            close: "-",    fail: "failed", "sign-in-needed": "needs-auth" },
  "needs-auth":  { start: "connecting", handshake: "-",       listed: "-",         retry: "-",            drop: "-",            close: "-",    fail: "failed", "sign-in-needed": "needs-auth" },
};

describe("a server's transition table", () => {
  it("is exactly the table above, phase by event, with no phase left out", () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...SERVER_PHASES].sort());
    for (const phase of SERVER_PHASES) {
      for (const event of SERVER_EVENTS) {
        const next = EXPECTED[phase][event];
        expect(nextPhase(phase, event), `${phase} × ${event}`).toBe(next === "-" ? undefined : next);
      }
      // No event outside the list.
      for (const event of Object.keys(TRANSITIONS[phase])) expect(SERVER_EVENTS).toContain(event);
    }
  });

  it("lets a server live its life: start, handshake, listed, drop, reconnect, give up", () => {
    const record = new ServerRecord("s", { command: "node" });
    expect(record.phase).toBe("idle");
    expect(record.start(attempt)).toBe(true);
    expect(record.phase).toBe("connecting");
    expect(record.handshake(watch)).toBe(true);
    expect(record.phase).toBe("listing");
    expect(record.connect({ connection, tools: [], connectedMs: 1, queuedMs: 0 })).toBe(true);
    expect(record.phase).toBe("connected");
    expect(record.drop("gone", error, true)).toBe(true);
    expect(record.phase).toBe("backing-off");
    expect(record.start(attempt)).toBe(true);
    expect(record.retrying(error)).toBe(true);
    expect(record.phase).toBe("backing-off");
    expect(record.fail(error)).toBe(false);
    expect(record.phase).toBe("failed");
  });

  it("rejects an event the table does not allow: nothing about the server changes", () => {
    const record = new ServerRecord("s", { command: "node" });
    // Committing without an attempt, from idle.
    expect(
      record.connect({
        connection,
        tools: [{ name: "t", inputSchema: { type: "object" } }],
        connectedMs: 1,
        queuedMs: 0,
      }),
    ).toBe(false);
    expect(record.phase).toBe("idle");
    expect(record.connection).toBeUndefined();
    expect(record.definitions).toEqual([]);
    // Dropping what never connected.
    expect(record.drop("gone", error, true)).toBe(false);
    expect(record.phase).toBe("idle");
    expect(record.lastError).toBeUndefined();
    // An automatic attempt's failure once it failed for good.
    record.fail(error);
    expect(record.retrying(new McpRtError("TRANSPORT_CLOSED", "y"))).toBe(false);
    expect(record.phase).toBe("failed");
    expect(record.lastError).toBe(error);
    // A second handshake of a connected server.
    record.start(attempt);
    record.handshake(watch);
    record.connect({ connection, tools: [], connectedMs: 1, queuedMs: 0 });
    expect(record.handshake(watch)).toBe(false);
    expect(record.phase).toBe("connected");
  });
});

const src = fileURLToPath(new URL("../src/", import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? files(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
// `phase = …`, `#phase = …`, `phase: ServerPhase = …`, `phase ??= …`: an assignment, not a comparison.
const WRITE = /(?:\.|#|\b)phase\s*(?::\s*[\w"| -]+)?(?:=(?!=)|\?\?=|\|\|=)/g;

describe("the writers of a server's phase", () => {
  it("finds a write when there is one (the scan can fail)", () => {
    expect("record.phase = 'idle';".match(WRITE)).toHaveLength(1);
    expect("this.#phase = next;".match(WRITE)).toHaveLength(1);
    expect("if (record.phase === 'idle') {}".match(WRITE)).toBeNull();
  });

  it("is one file: server-record.ts, through the transition table", () => {
    const writers = files(src).filter((file) => readFileSync(file, "utf8").match(WRITE) !== null);
    expect(writers.map((file) => relative(src, file))).toEqual(["server/server-record.ts"]);
    const record = readFileSync(join(src, "server/server-record.ts"), "utf8");
    // Its initial value, and the one assignment in `#enter`, which looks the event up in the table.
    expect(record.match(WRITE)).toEqual(["#phase: ServerPhase =", "#phase ="]);
    expect(record).toMatch(/const next = nextPhase\(this\.#phase, event\);[\s\S]{0,80}this\.#phase = next;/);
  });
});
