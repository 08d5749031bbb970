import { monotonicMs, plural } from "@mcp-rt/config/util";
import { type MCPManager, type MCPServerState, type McpRtError, notWaitedNote } from "@mcp-rt/session";
import type { Output } from "./output.js";
import { readline } from "./readline.js";
import { terminalSafe } from "./terminal-text.js";

/** Options of {@link createStartupView}. */
export interface StartupViewOptions {
  output: Output;
  /**
   * A terminal to redraw the server lines in place on (text mode on a TTY).
   * Without one every server gets one plain line once it settles.
   */
  terminal?: NodeJS.WriteStream;
}

/** What startup ended with, for the last lines. */
export interface StartupSummary {
  /** The manager's view of every server once `connectServers` returned. */
  states: MCPServerState[];
  /** Exposed tools, live and deferred. */
  toolCount: number;
  /** Config file problems not tied to a started server: `path: message`. */
  problems: string[];
}

/** Shows servers connecting at startup: a header, a line per server, then when the tools are there. */
export interface StartupView {
  /**
   * Prints `note` (where the servers come from, when that needs saying), the
   * header and a line per server (`approval`: project servers waiting for
   * `/mcp trust`; `blocked`: servers a policy forbids, with whose rule in which file).
   */
  begin(servers: {
    names: string[];
    approval: string[];
    blocked?: Array<{ name: string; why: string }>;
    note?: string | undefined;
  }): void;
  /** Follows the manager's events until the returned function is called. */
  attach(manager: MCPManager): () => void;
  /** Marks servers still pending as deferred or connecting and prints the timing line. */
  finish(summary: StartupSummary): void;
  /**
   * Writes other output (a warning, say) while the server lines are on a
   * terminal: above them, then draws them again below, so they stay in place.
   */
  write(chunk: string): void;
}

interface Row {
  name: string;
  text: string;
  /** True once the row shows a final state (printed in plain mode). */
  settled: boolean;
}

/**
 * `✗ name: …` in one line: the message (which carries the most telling stderr
 * line), what to do, and where the whole stderr tail is when there is one.
 */
function failureText(name: string, error: Pick<McpRtError, "message"> & { stderrTail?: string }): string {
  const stderr = error.stderrTail?.trim() ? `; /mcp list ${name} shows its stderr` : "";
  return `✗ ${name}: ${error.message} — fix it, then /mcp reload; /mcp disable ${name} silences it${stderr}`;
}

/**
 * The startup status: `Connecting to MCP servers: a, b, c`, then per server
 * `✓ name  312 ms · 13 tools`, `◌ name  deferred: 3 tools from the cache`,
 * `✗ name: error — what to do`, `? name  needs approval (/mcp trust)`,
 * `⛔ name  not started: forbidden by <policy> (<file>): <rule>`, then
 * `tools available after N ms`. On a terminal the lines update in place; in
 * plain mode each server prints once, when it settles; in `--json` mode each
 * is a `status` object.
 */
export function createStartupView(options: StartupViewOptions): StartupView {
  const { output, terminal } = options;
  const rows: Row[] = [];
  let drawn = 0;
  let startedAt = 0;

  // A pseudo-terminal may report 0 columns: treat that as unknown.
  const width = (): number => Math.max(20, (terminal?.columns || 120) - 1);
  const draw = (): void => {
    if (!terminal) return;
    if (drawn > 0) readline().moveCursor(terminal, 0, -drawn);
    for (const row of rows) {
      readline().cursorTo(terminal, 0);
      readline().clearLine(terminal, 0);
      terminal.write(`${[...terminalSafe(row.text)].slice(0, width()).join("")}\n`);
    }
    drawn = rows.length;
  };
  const update = (name: string, text: string, data: Record<string, unknown>, settled = true): void => {
    let row = rows.find((entry) => entry.name === name);
    if (!row) {
      row = { name, text, settled: false };
      rows.push(row);
    }
    row.text = text;
    if (terminal) {
      draw();
      return;
    }
    if (settled && !row.settled) output.write("status", text, { event: "server", name, ...data });
    row.settled ||= settled;
  };

  return {
    write(chunk) {
      if (!terminal) {
        process.stdout.write(chunk);
        return;
      }
      if (drawn > 0) {
        readline().moveCursor(terminal, 0, -drawn);
        readline().cursorTo(terminal, 0);
        readline().clearScreenDown(terminal);
      }
      terminal.write(chunk);
      if (drawn > 0) {
        drawn = 0;
        draw();
      }
    },
    begin({ names, approval, blocked = [], note }) {
      startedAt = monotonicMs();
      if (note) output.write("status", note, { event: "note" });
      const all = [...names, ...approval];
      const header =
        all.length === 0 ? "No MCP servers to connect." : `Connecting to MCP servers: ${all.join(", ")}`;
      output.write("status", header, { event: "connecting", servers: names, needsApproval: approval });
      for (const name of names) rows.push({ name, text: `◌ ${name}  connecting…`, settled: false });
      for (const name of approval) {
        rows.push({ name, text: `? ${name}  needs approval: review it, then /mcp trust`, settled: false });
      }
      for (const { name, why } of blocked) {
        rows.push({ name, text: `⛔ ${name}  not started: forbidden by ${why}`, settled: false });
      }
      draw();
    },
    attach(manager) {
      const offs = [
        manager.on("server:connecting", ({ name }) =>
          update(name, `◌ ${name}  connecting…`, { status: "connecting" }, false),
        ),
        manager.on("server:connected", ({ name, ms, toolCount }) =>
          update(name, `✓ ${name}  ${Math.round(ms)} ms · ${plural(toolCount, "tool")}`, {
            status: "connected",
            ms: Math.round(ms),
            toolCount,
          }),
        ),
        manager.on("server:failed", ({ name, error }) =>
          update(name, failureText(name, error), {
            status: "failed",
            error: { code: error.code, message: error.message },
          }),
        ),
      ];
      return () => {
        for (const off of offs) off();
      };
    },
    finish(summary) {
      for (const state of summary.states) {
        if (state.status === "failed" && state.lastError) {
          update(state.name, failureText(state.name, state.lastError), {
            status: "failed",
            error: { code: state.lastError.code, message: state.lastError.message },
          });
        } else if (state.status === "connecting" && state.deferred) {
          const text = `◌ ${state.name}  deferred: ${plural(state.toolCount, "tool")} from the cache; the server is still starting`;
          update(state.name, text, { status: "deferred", toolCount: state.toolCount });
        } else if (state.status === "connecting") {
          const missed = state.notWaitedFor;
          const why = missed ? notWaitedNote(missed) : "still connecting; its tools follow when it is up";
          const text = `◌ ${state.name}  ${why}`;
          update(state.name, text, { status: "connecting", ...(missed ? { notWaitedFor: missed } : {}) });
        }
      }
      for (const row of rows) {
        if (!row.settled && row.text.startsWith("?"))
          update(row.name, row.text, { status: "needs-approval" });
        if (!row.settled && row.text.startsWith("⛔")) update(row.name, row.text, { status: "blocked" });
      }
      draw();
      // The lines are final now: what follows is written below them.
      drawn = 0;
      for (const problem of summary.problems) output.write("status", `✗ ${problem}`, { event: "problem" });
      const ms = Math.round(monotonicMs() - startedAt);
      const servers = summary.states.filter((state) => state.toolCount > 0).length;
      const deferred = summary.states.filter((state) => state.deferred).length;
      const detail = [
        `${plural(summary.toolCount, "tool")} from ${plural(servers, "server")}`,
        ...(deferred > 0 ? [`${deferred} deferred`] : []),
      ].join(", ");
      output.write("status", `tools available after ${ms} ms (${detail})`, {
        event: "ready",
        ms,
        toolCount: summary.toolCount,
        servers: summary.states,
      });
    },
  };
}
