import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { firstSettled } from "@mcp-rt/config/util";
import { type JSONRPCMessage, SdkError, SdkErrorCode, serializeMessage } from "@modelcontextprotocol/client";
import spawn from "cross-spawn";
import type { ProcessExit, StdioClientTransport } from "../client-transport.js";
import { errnoOf } from "../error-text.js";
import { DEFAULT_MAX_MESSAGE_BYTES, tooLargeText } from "../message-limit.js";
import { completeByDefault } from "../result-type.js";
import {
  createServerEnv,
  launchTurn,
  resolveServerCwd,
  terminateProcessGroup,
  trackProcessGroup,
} from "./server-process.js";
import { createStderrBuffer, type StderrBuffer } from "./stderr-buffer.js";
import { StdoutLines, StdoutNoise } from "./stdout-lines.js";

const noop = (): void => {};
/** What `send` returns once the message is handed to the pipe. */
const SENT: Promise<void> = Promise.resolve();

/** Options of {@link createStdioTransport}: what a stdio server config says, and where the agent runs. */
export interface StdioTransportOptions {
  /** The program to run (resolved on `PATH`; Windows shims such as `npx.cmd` work too). */
  command: string;
  /** Its arguments. */
  args?: string[];
  /** Variables set on top of the inherited environment, unfiltered (a config's `env`). */
  env?: Record<string, string> | undefined;
  /** Names inherited even though they look secret (a config's `envPassthrough`). @default [] */
  envPassthrough?: readonly string[] | undefined;
  /** The environment the server inherits, before secret-looking names are removed (`createServerEnv`). @default process.env */
  parentEnv?: Record<string, string | undefined> | undefined;
  /** The server's working folder, relative to `agentCwd` unless absolute. @default agentCwd */
  cwd?: string | undefined;
  /** The agent's working folder. @default process.cwd() */
  agentCwd?: string | undefined;
  /** Gives up a launch still waiting for its turn: `start()` rejects with the reason, nothing is spawned. */
  signal?: AbortSignal | undefined;
  /** Called with every piece of text the server writes to stderr. */
  onStderr?: (chunk: string) => void;
  /** How much stderr to keep, in characters. @default 65536 */
  stderrLimit?: number;
  /** On close, how long the server may take to exit after its stdin ends, before SIGTERM. @default 1000 */
  stdinGraceMs?: number;
  /** On close, how long the process group may take to exit after SIGTERM, before SIGKILL. @default 2000 */
  killGraceMs?: number;
  /** The longest line (one message) the server may write to stdout, in bytes; past it the transport closes, saying so. @default 10485760 */
  maxMessageBytes?: number;
}

/** The default of {@link StdioTransportOptions.killGraceMs}. */
const KILL_GRACE_MS = 2000;

// How long to let stdout/stderr drain after the process exits before reporting the close.
const DRAIN_MS = 200;

/**
 * A stdio transport that runs the server in its own process group, so closing
 * it ends the server and everything the server started (`npx`, shell wrappers,
 * grandchildren), and a terminal's Ctrl-C does not reach servers behind the
 * agent's back. Messages are framed with the SDK's `deserializeMessage` and
 * `serializeMessage`.
 *
 * Close: end stdin, wait `stdinGraceMs`, SIGTERM the group, wait `killGraceMs`,
 * SIGKILL the group; `close()` resolves once no process of the group runs.
 */
export class ProcessGroupStdioTransport implements StdioClientTransport {
  /** Always `stdio`. */
  readonly kind = "stdio" as const;
  /** Called once, when the process has exited or `close()` has finished. */
  onclose?: (() => void) | undefined;
  /** Called on out-of-band problems: unparsable stdout lines, pipe errors. */
  onerror?: ((error: Error) => void) | undefined;
  /** Called with every JSON-RPC message the server sends. */
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  readonly #options: StdioTransportOptions;
  readonly #readBuffer: StdoutLines;
  readonly #killGraceMs: number;
  readonly #stderr: StderrBuffer;
  #child: ChildProcess | undefined;
  #exit: ProcessExit | undefined;
  #exited: Promise<void> | undefined;
  #streamsClosed: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #closeReported = false;
  #protocolVersion: string | undefined;
  #stdoutNoise: string | undefined;
  #limitBreach: string | undefined;
  #stdinBroken: string | undefined;
  #hurry: (() => void) | undefined;
  readonly #hurried = new Promise<void>((resolve) => {
    this.#hurry = resolve;
  });
  #started: Promise<void> | undefined;
  #awaited: { id: string; settle: (answer: JSONRPCMessage | undefined) => void } | undefined;
  #spokeAt: number | undefined;
  #lastOutputAt: number | undefined;
  #stdoutAt: number | undefined;
  readonly #outputListeners = new Set<() => void>();

  constructor(options: StdioTransportOptions) {
    this.#options = options;
    this.#killGraceMs = options.killGraceMs ?? KILL_GRACE_MS;
    this.#stderr = createStderrBuffer(options.stderrLimit);
    this.#readBuffer = new StdoutLines(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  }

  /** The server's process id (also its process group id), once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /** The protocol version agreed at `initialize`, once known. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** Set when the transport closed because the server wrote a message past `maxMessageBytes`: what happened. */
  get limitBreach(): string | undefined {
    return this.#limitBreach;
  }

  /** Why the transport closed on its own while the server still ran (a message past `maxMessageBytes`, a broken stdin), once it has. */
  get closeReason(): string | undefined {
    return this.#limitBreach ?? this.#stdinBroken;
  }

  /** The first stdout line that was not a JSON-RPC message, if any (a server logging to stdout). */
  get stdoutNoise(): string | undefined {
    return this.#stdoutNoise;
  }

  /** Called by the SDK client after `initialize`. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  /** The last lines the server wrote to stderr (up to `maxLines` / `maxChars`). */
  stderrTail(maxLines?: number, maxChars?: number): string {
    return this.#stderr.tail(maxLines, maxChars);
  }

  /** Everything kept of the server's stderr (about the last 64 KiB). */
  stderrText(): string {
    return this.#stderr.text();
  }

  /** Resolves with how the process ended once it has, or with undefined after `ms`. */
  async waitForExit(ms: number): Promise<ProcessExit | undefined> {
    if (this.#exited && !this.#exit) await firstSettled([this.#exited], ms);
    return this.#exit;
  }

  /** When the server first wrote anything, in ms since the epoch: its first sign of life (`npx -y` delays it). */
  get firstOutputAt(): number | undefined {
    return this.#spokeAt;
  }

  /** When the server last wrote anything, on stdout or stderr, in ms since the epoch. */
  get lastOutputAt(): number | undefined {
    return this.#lastOutputAt;
  }

  /** When the server first wrote on stdout, in ms since the epoch (its protocol channel). */
  get firstStdoutAt(): number | undefined {
    return this.#stdoutAt;
  }

  /** Calls `listener` each time the server writes anything, on stdout or stderr. Returns an unsubscribe function. */
  onOutput(listener: () => void): () => void {
    this.#outputListeners.add(listener);
    return () => this.#outputListeners.delete(listener);
  }

  /** Resolves with the answer to request `id`, sent before a client takes over (the era probe), never passed to `onmessage`; undefined once closed. */
  answerTo(id: string): Promise<JSONRPCMessage | undefined> {
    if (this.#closeReported) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const settle = (answer: JSONRPCMessage | undefined): void => {
        this.#awaited = undefined;
        resolve(answer);
      };
      this.#awaited = { id, settle };
    });
  }

  /**
   * Waits for the launch's turn (`launchTurn`), then spawns the server as the
   * leader of a process group of its own (POSIX; on Windows `detached` would
   * open a console window). Rejects with the spawn error (`code` ENOENT,
   * EACCES…) if it cannot start. Another call returns the same promise: the
   * era probe starts the transport before the SDK client, which starts it again.
   */
  start(): Promise<void> {
    if (this.#started) return this.#started;
    if (this.#closing) throw new Error("ProcessGroupStdioTransport was closed before it started");
    this.#started = launchTurn(this.#options.signal).then(() => this.#spawn());
    return this.#started;
  }

  #spawn(): Promise<void> {
    if (this.#closing) throw new Error("ProcessGroupStdioTransport was closed before it started");
    const { command, args = [], env, envPassthrough = [], parentEnv = process.env } = this.#options;
    const child = spawn(command, args, {
      cwd: resolveServerCwd(this.#options.cwd, this.#options.agentCwd ?? process.cwd()),
      env: createServerEnv({ parent: parentEnv, env: env ?? {}, passthrough: envPassthrough }),
      stdio: ["pipe", "pipe", "pipe"],
      detached: process.platform !== "win32",
      windowsHide: true,
      shell: false,
    });
    this.#child = child;
    // `once` rejects when the child emits "error"; only the moment matters here.
    this.#exited = once(child, "exit").then(noop, noop);
    // "close" comes after "exit" once stdout and stderr have ended.
    this.#streamsClosed = once(child, "close").then(noop, noop);

    child.stdout?.on("data", (chunk: Buffer) => this.#onStdout(chunk));
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => this.#onStderr(chunk));
    for (const stream of [child.stdin, child.stdout, child.stderr]) {
      stream?.on("error", (error) => {
        if (this.#closing) return;
        this.onerror?.(error);
        if (stream === child.stdin) this.#onStdinBroken(error).catch(noop);
      });
    }

    return new Promise<void>((resolve, reject) => {
      child.once("error", (error) => {
        if (child.pid === undefined) {
          this.#closing = Promise.resolve();
          this.#closeReported = true;
          reject(error);
        } else {
          this.onerror?.(error);
        }
      });
      child.once("spawn", () => {
        // Neither the process nor its pipes keep the event loop alive: pending requests (their timers) do.
        child.unref();
        for (const stream of [child.stdin, child.stdout, child.stderr]) {
          (stream as unknown as { unref?: () => void } | null)?.unref?.();
        }
        // A close() that raced the spawn has already ended (and forgotten) the group.
        if (!this.#closing) trackProcessGroup(child.pid as number, this.#killGraceMs);
        child.once("exit", (code, signal) => this.#onExit({ code, signal }));
        resolve();
      });
    });
  }

  /**
   * Writes one message to the server's stdin. Rejects when the process is
   * gone. A write that fails later (the server closed its stdin) is not this
   * promise's to report: the pipe's `"error"` closes the transport, which
   * fails every request in flight. No write callback: as the SDK's own.
   */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#exit || this.#closing || !stdin.writable) {
      return Promise.reject(new SdkError(SdkErrorCode.NotConnected, "Not connected"));
    }
    stdin.write(serializeMessage(message));
    return SENT;
  }

  /** Ends the server and its whole process group; idempotent, resolves once they are gone. */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  /** Like `close()`, but sends SIGTERM at once instead of waiting for the server to exit on its own. */
  terminate(): Promise<void> {
    this.#hurry?.();
    return this.close();
  }

  async #shutdown(): Promise<void> {
    const child = this.#child;
    const pid = child?.pid;
    if (child && pid !== undefined) {
      if (!this.#exit) {
        child.stdin?.end();
        await firstSettled(
          [this.#exited ?? Promise.resolve(), this.#hurried],
          this.#options.stdinGraceMs ?? 1000,
        );
      }
      // Even when the leader has exited, grandchildren may still run in its group.
      await terminateProcessGroup(pid, this.#killGraceMs);
      await firstSettled([this.#streamsClosed ?? Promise.resolve()], DRAIN_MS);
      child.stdin?.destroy();
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
    this.#readBuffer.clear();
    this.#reportClose();
  }

  async #onExit(exit: ProcessExit): Promise<void> {
    this.#exit = exit;
    const child = this.#child;
    if (this.#closing || !child) return;
    // The stderr tail and last messages complete, but no waiting for a grandchild holding the pipes.
    await firstSettled([this.#streamsClosed ?? Promise.resolve()], DRAIN_MS);
    this.#reportClose();
    // The server is dead: whatever it started goes too.
    this.close().catch(() => {});
  }

  /** A server whose stdin broke and that is not exiting is ended, and with it the requests waiting for it. */
  async #onStdinBroken(error: Error): Promise<void> {
    if ((await this.waitForExit(DRAIN_MS)) || this.#closing) return;
    this.#stdinBroken = `it stopped reading its stdin (${errnoOf(error) ?? error.message}), so mcp-rt ended it`;
    await this.terminate();
  }

  #reportClose(): void {
    if (this.#closeReported) return;
    this.#closeReported = true;
    this.#awaited?.settle(undefined);
    this.onclose?.();
  }

  #noteOutput(): void {
    const now = Date.now();
    this.#spokeAt ??= now;
    this.#lastOutputAt = now;
    for (const listener of [...this.#outputListeners]) listener();
  }

  #onStdout(chunk: Buffer): void {
    this.#stdoutAt ??= Date.now();
    this.#noteOutput();
    // The rest of a message past the limit is dropped, not read as new lines.
    if (this.#limitBreach) return;
    try {
      this.#readBuffer.append(chunk);
    } catch {
      // The rest of the line would be read as new messages: the stream cannot be trusted any more.
      const limit = this.#options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
      this.#limitBreach ??= `it sent ${tooLargeText(limit)}, so mcp-rt closed the connection`;
      this.onerror?.(new Error(`The server sent ${tooLargeText(limit)}; closing the connection`));
      this.close().catch(() => {});
      return;
    }
    for (;;) {
      const message = this.#readBuffer.next();
      if (message === null) break;
      if (message instanceof StdoutNoise) {
        // Report the line and go on with the next one.
        this.#stdoutNoise ??= message.reason;
        this.onerror?.(
          new Error(`The server wrote a line that is not JSON-RPC on stdout: ${message.reason}`),
        );
      } else if (this.#awaited && "id" in message && message.id === this.#awaited.id) {
        this.#awaited.settle(message);
      } else {
        this.onmessage?.(completeByDefault(message, this.#protocolVersion));
      }
    }
  }

  #onStderr(chunk: string): void {
    this.#noteOutput();
    this.#stderr.append(chunk);
    try {
      this.#options.onStderr?.(chunk);
    } catch {
      // A throwing listener must not break the connection.
    }
  }
}

/** Creates a {@link ProcessGroupStdioTransport}. */
export function createStdioTransport(options: StdioTransportOptions): ProcessGroupStdioTransport {
  return new ProcessGroupStdioTransport(options);
}
