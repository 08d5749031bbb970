import { terminalSafe, terminalSafeJson } from "./terminal-text.js";

/** What a piece of output is, so `--json` readers can tell lines apart. */
export type OutputKind =
  /** Startup and server status (connecting, connected, deferred, failed…). */
  | "status"
  /** What a command printed (`/mcp …`, `/tools`, `/help`). */
  | "result"
  /** A tool call about to run. */
  | "tool-call"
  /** Progress a running tool reported. */
  | "progress"
  /** What a tool returned. */
  | "tool-result"
  /** The model's answer. */
  | "answer"
  /** Something that happened meanwhile: a deferred server came up, a server dropped. */
  | "notice"
  /** A command or turn that failed, and what to do. */
  | "error";

/**
 * Where the agent writes. In text mode a line is its text; in `--json` mode
 * every write is one JSON object on one line: `{ "type": kind, "text": …, …data }`.
 */
export interface Output {
  /** True in `--json` mode. */
  readonly json: boolean;
  write(kind: OutputKind, text: string, data?: Record<string, unknown>): void;
}

/** Options of {@link createOutput}. */
export interface OutputOptions {
  json: boolean;
  /** Writes one chunk (ending in a newline). @default process.stdout.write */
  write?: (chunk: string) => void;
}

/**
 * The agent's {@link Output}: text lines, or JSON Lines with `--json`. Much
 * of what it writes comes from servers, so every line goes through
 * `terminalSafe` (text) or `terminalSafeJson` (JSON): no server can move the
 * cursor, clear the screen or write the clipboard through it.
 */
export function createOutput(options: OutputOptions): Output {
  const write = options.write ?? ((chunk: string) => void process.stdout.write(chunk));
  return {
    json: options.json,
    write(kind, text, data) {
      const safe = terminalSafe(text);
      write(options.json ? `${terminalSafeJson({ type: kind, text: safe, ...data })}\n` : `${safe}\n`);
    },
  };
}
