import type { ChildProcess } from "node:child_process";

/** How long a `!command` value may run. @default 10000 */
export const SHELL_VALUE_TIMEOUT_MS = 10_000;

// Secrets are short; a command that prints more is almost surely the wrong one.
const MAX_OUTPUT_BYTES = 1024 * 1024;

/** Options of {@link runShellValue}. */
export interface RunShellValueOptions {
  /** Limit in ms; the command's whole process group is killed after it. @default 10000 */
  timeoutMs?: number;
  /** Folder the command runs in. @default process.cwd() */
  cwd?: string;
  /** Its environment. @default process.env */
  env?: Record<string, string | undefined>;
  /**
   * Runs the command even when a result is kept, and keeps the new one: a
   * reload asks whether the value changed. A run already in flight is still
   * shared. @default false
   */
  fresh?: boolean;
}

/**
 * What running a `!command` value gave: its trimmed stdout, or why it failed.
 * `reason` never holds the command or anything it printed: both may be secret.
 */
export type ShellValueResult = { ok: true; value: string } | { ok: false; reason: string };

const cache = new Map<string, Promise<ShellValueResult>>();
// The runs that finished: a fresh run replaces one of these, and joins one still running.
const settled = new WeakSet<Promise<ShellValueResult>>();

/**
 * Runs `command` through the shell and returns its trimmed stdout. Successful
 * results are kept for the life of the process (`fresh` runs it again); a run
 * already in flight for the same command (and folder) is shared rather than
 * started twice. Failures are not kept, so the next connect tries again.
 */
export function runShellValue(
  command: string,
  options: RunShellValueOptions = {},
): Promise<ShellValueResult> {
  const cwd = options.cwd ?? process.cwd();
  const key = JSON.stringify([command, cwd]);
  const known = cache.get(key);
  if (known && !(options.fresh && settled.has(known))) return known;
  const run = execute(command, cwd, options).then((result) => {
    settled.add(run);
    if (!result.ok && cache.get(key) === run) cache.delete(key);
    return result;
  });
  cache.set(key, run);
  return run;
}

async function execute(
  command: string,
  cwd: string,
  options: RunShellValueOptions,
): Promise<ShellValueResult> {
  // Loaded on first use: most starts run no shell value (bench/README.md, "The agent's start path").
  const { spawn } = await import("node:child_process");
  const timeoutMs = options.timeoutMs ?? SHELL_VALUE_TIMEOUT_MS;
  const groups = process.platform !== "win32";
  return new Promise((resolvePromise) => {
    let settled = false;
    const finish = (result: ShellValueResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise(result);
    };
    let child: ChildProcess;
    try {
      child = spawn(command, {
        shell: true,
        cwd,
        env: options.env ?? process.env,
        stdio: ["ignore", "pipe", "ignore"],
        // Its own process group, so a timeout also ends what the shell started.
        detached: groups,
        windowsHide: true,
      });
    } catch (error) {
      resolvePromise({ ok: false, reason: `could not be started (${errorCode(error)})` });
      return;
    }
    const kill = (): void => {
      try {
        if (groups && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      kill();
      finish({ ok: false, reason: `did not finish within ${timeoutMs} ms` });
    }, timeoutMs);
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout?.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) {
        kill();
        finish({ ok: false, reason: `printed more than ${MAX_OUTPUT_BYTES} bytes` });
        return;
      }
      chunks.push(chunk);
    });
    child.on("error", (error) => {
      kill();
      finish({ ok: false, reason: `could not be started (${errorCode(error)})` });
    });
    child.on("close", (code, signal) => {
      if (code !== 0) {
        finish({
          ok: false,
          reason: signal ? `was killed by ${signal}` : `exited with code ${code ?? "unknown"}`,
        });
        return;
      }
      const value = Buffer.concat(chunks).toString("utf8").trim();
      finish(value === "" ? { ok: false, reason: "printed nothing" } : { ok: true, value });
    });
  });
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "unknown error";
}
