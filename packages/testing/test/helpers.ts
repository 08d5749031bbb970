import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { MCPStdioServerConfig } from "@mcp-rt/config";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, afterEach, expect } from "vitest";
import { childProcessesOf, waitForProcessExit } from "../src/index.js";

export { useTempDir } from "../../../test-support/temp-dir.js";

/** An SDK client on a fixture started from `config`, with its stderr collected. */
export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  stderr(): string;
  /** The server's pid, once started. */
  pid?: number | undefined;
  /** Closes the client and waits until the process is gone. */
  close(): Promise<void>;
}

const open = new Set<StdioSession>();

/** Spawns `config` with the SDK's stdio transport (connected by `client.connect`). */
export function spawnStdio(config: MCPStdioServerConfig): StdioSession {
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    stderr: "pipe",
  });
  let stderr = "";
  // With `stderr: "pipe"` the SDK hands out a PassThrough, typed as a bare Stream.
  (transport.stderr as Readable | null)?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-256 * 1024);
  });
  const client = new Client({ name: "fixture-test", version: "1.0.0" });
  const session: StdioSession = {
    client,
    transport,
    stderr: () => stderr,
    close: async () => {
      open.delete(session);
      await client.close();
      await transport.close();
      // The SDK sends SIGKILL last without waiting for it; a failed connect
      // closes in the background.
      if (session.pid !== undefined) await waitForProcessExit(session.pid, 10_000);
    },
  };
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    session.pid = transport.pid ?? undefined;
  };
  open.add(session);
  return session;
}

/** Spawns and connects; rejects if `initialize` does not complete within `timeoutMs`. */
export async function connectStdio(config: MCPStdioServerConfig, timeoutMs = 10_000): Promise<StdioSession> {
  const session = spawnStdio(config);
  await session.client.connect(session.transport, { timeout: timeoutMs });
  return session;
}

/** Closes every session a test left open. */
export async function closeAll(): Promise<void> {
  await Promise.all([...open, ...openRaw].map((session) => session.close()));
}

/** A fixture process spoken to in raw JSON-RPC lines, without an SDK in between. */
export interface RawStdio {
  child: ChildProcess;
  /** Writes one message as a line. */
  send(message: object): void;
  /** The next message the server writes; `undefined` when none comes within `ms`. */
  next(ms?: number): Promise<Record<string, unknown> | undefined>;
  /** How the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  /** Ends stdin, and kills the process if it has not exited 5 s later. */
  close(): Promise<void>;
}

const openRaw = new Set<RawStdio>();

/** Spawns `config` and reads its stdout line by line; every line must be JSON. */
export function spawnRaw(config: MCPStdioServerConfig): RawStdio {
  const child = spawn(config.command, config.args ?? [], { stdio: "pipe" });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.on("error", () => {}); // the process may exit before reading
  const lines: Record<string, unknown>[] = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(JSON.parse(line) as Record<string, unknown>);
    for (const waiter of waiters.splice(0)) waiter();
  });
  const exited = once(child, "exit").then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const raw: RawStdio = {
    child,
    send: (message) => child.stdin.write(rpc(message)),
    next: async (ms = 10_000) => {
      const deadline = Date.now() + ms;
      while (lines.length === 0 && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, deadline - Date.now());
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return lines.shift();
    },
    exited,
    stderr: () => stderr,
    close: async () => {
      openRaw.delete(raw);
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      if (child.exitCode === null && child.signalCode === null) await exited;
      clearTimeout(timer);
    },
  };
  openRaw.add(raw);
  return raw;
}

/** What a process run to its end printed, and how it ended. */
export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `config` as a plain child process, writes `input` to its stdin, ends
 * stdin after `endAfterMs`, and resolves when the process exits.
 */
export function runToExit(config: MCPStdioServerConfig, input = "", endAfterMs = 0): Promise<RunResult> {
  const child = spawn(config.command, config.args ?? [], { stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.on("error", () => {}); // the process may exit before reading
  child.stdin.write(input);
  const timer = setTimeout(() => child.stdin.end(), endAfterMs);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** One JSON-RPC line. */
export const rpc = (message: object): string => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;

/** The `initialize` request and `initialized` notification a client sends first. */
export const handshake: string =
  rpc({
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  }) + rpc({ method: "notifications/initialized" });

/**
 * Closes every session after each test, then checks that no child process of
 * this test process is left (after each test, and after the file).
 */
export function closeSessionsAfterEach(): void {
  afterEach(async () => {
    await closeAll();
    expect(childProcessesOf(process.pid)).toEqual([]);
  });
  afterAll(() => {
    expect(childProcessesOf(process.pid)).toEqual([]);
  });
}

/** The text blocks of a tool result, joined. */
export const textOf = (result: unknown): string => {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((block) => block.text ?? "").join("");
};
