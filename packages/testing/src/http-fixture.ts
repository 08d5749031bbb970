import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import type { MCPHttpServerConfig } from "@mcp-rt/config";
import { type FixtureOptions, fixtureArgs } from "./fixture-options.js";
import { fixtureServer, fixtureServerPath } from "./fixtures.js";

/** Options of {@link startHttpFixture}. */
export interface HttpFixtureOptions extends FixtureOptions {
  /** `http`: Streamable HTTP at `/mcp`; `sse`: the legacy SSE transport at `/sse`. @default "http" */
  transport?: "http" | "sse";
  /** How long to wait for the server to listen before giving up. @default 10000 */
  startTimeoutMs?: number;
}

/** A running HTTP fixture server. */
export interface HttpFixture {
  /** The endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  url: string;
  /** A ready config for the endpoint (`type` set to the transport). */
  config: MCPHttpServerConfig;
  /** The server's pid (also its process group id). */
  pid: number;
  /** The last 64 KiB the server wrote to stderr. */
  stderr(): string;
  /** Stops the server and everything in its process group: SIGTERM, SIGKILL after 2 s. Idempotent. */
  close(): Promise<void>;
  /** Same as {@link HttpFixture.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

const STDERR_LIMIT = 64 * 1024;
const KILL_GRACE_MS = 2000;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(process.platform === "win32" ? child.pid : -child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Starts the fixture server over Streamable HTTP (or SSE) on 127.0.0.1 and a
 * free port, in its own process group, and resolves once it listens.
 *
 * @example
 * const server = await startHttpFixture({ tools: 3 });
 * try { await connectToServer({ name: "remote", config: server.config }); } finally { await server.close(); }
 */
export async function startHttpFixture(options: HttpFixtureOptions = {}): Promise<HttpFixture> {
  const { transport = "http", startTimeoutMs = 10_000, ...fixtureOptions } = options;
  fixtureServer(); // fails early with a clear message when the program is not built
  const child = spawn(
    process.execPath,
    [fixtureServerPath, transport === "sse" ? "--sse" : "--http", ...fixtureArgs(fixtureOptions)],
    { stdio: ["ignore", "pipe", "pipe"], detached: process.platform !== "win32" },
  );
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_LIMIT);
  });
  const exited = once(child, "exit").then(() => undefined);

  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      signalGroup(child, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child, "SIGKILL"), KILL_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    // Grandchildren outlive their parent; sweep the group.
    signalGroup(child, "SIGKILL");
  };

  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`HTTP fixture did not listen within ${startTimeoutMs} ms; stderr:\n${stderr}`)),
      startTimeoutMs,
    );
    lines.on("line", (line) => {
      const match = /^LISTENING (\S+)$/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`HTTP fixture exited (${signal ?? `code ${code}`}) before listening; stderr:\n${stderr}`),
      );
    });
  }).catch(async (error: unknown) => {
    await close();
    throw error;
  });

  const pid = child.pid!;
  return {
    url,
    config: { type: transport, url },
    pid,
    stderr: () => stderr,
    close,
    [Symbol.asyncDispose]: close,
  };
}
