import { fork } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { childProcessesOf } from "@mcp-rt/testing";
import type { Task, TaskResults, WorkerMessage } from "./tasks.js";

const workerPath = fileURLToPath(new URL("./worker.js", import.meta.url));

/** Options of {@link runInWorker}. */
export interface RunInWorkerOptions {
  /** The run is stopped (worker and every process it started killed) after this long. */
  timeoutMs: number;
  /** Extra Node flags for the worker, e.g. `--cpu-prof`. */
  execArgv?: string[];
  /** The run ends once the processes it left behind are gone ({@link orphansGone}). @default false */
  waitForOrphans?: boolean;
}

const STDERR_TAIL = 4000;

/** How long a run waits at most for the processes the previous one left behind. */
const ORPHAN_WAIT_MS = 5000;

/** The ids of every process on the machine (Linux), or undefined where /proc cannot tell. */
export function processIds(): Set<number> | undefined {
  if (!existsSync("/proc/self")) return undefined;
  return new Set(
    readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number),
  );
}

/**
 * Waits until the processes that appeared since `before` are gone (at most
 * {@link ORPHAN_WAIT_MS}): a client that closes only its servers' direct
 * children leaves their own children running (chrome-devtools-mcp's telemetry
 * watchdog outlives the raw SDK's `close()` by about a second, busy), and
 * without this they would take CPU from the next contender's run.
 */
export async function orphansGone(before: Set<number> | undefined): Promise<void> {
  if (!before) return;
  const until = performance.now() + ORPHAN_WAIT_MS;
  while (performance.now() < until) {
    const now = processIds();
    if (!now || [...now].every((pid) => before.has(pid))) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function killTree(pid: number): void {
  // The descendants first: mcp-rt starts servers in their own process groups,
  // so killing the worker alone would orphan them.
  for (const child of childProcessesOf(pid).reverse()) {
    try {
      process.kill(child, "SIGKILL");
    } catch {
      // already gone
    }
  }
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/**
 * Runs one task in a fresh Node process (`dist/worker.js`) and resolves with
 * its result. Rejects with the worker's error, or when it takes longer than
 * `timeoutMs`, exits without answering, or cannot start.
 */
export function runInWorker<K extends Task["kind"]>(
  task: Extract<Task, { kind: K }>,
  options: RunInWorkerOptions,
): Promise<TaskResults[K]> {
  const before = options.waitForOrphans ? processIds() : undefined;
  const run = new Promise<TaskResults[K]>((resolve, reject) => {
    const child = fork(workerPath, [], {
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      execArgv: options.execArgv ?? [],
    });
    let stderr = "";
    let settled = false;
    child.stdout?.resume();
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const timer = setTimeout(() => {
      if (child.pid !== undefined) killTree(child.pid);
      finish(() => reject(new Error(`stopped at the ${Math.round(options.timeoutMs / 1000)} s bound`)));
    }, options.timeoutMs);
    let answer: WorkerMessage | undefined;
    // The answer counts once the worker has exited and what it left behind is
    // gone, so the next run never overlaps with this one's teardown.
    child.on("message", (message: WorkerMessage) => {
      answer = message;
    });
    child.on("error", (error) => finish(() => reject(error)));
    child.on("exit", (code, signal) => {
      finish(() => {
        if (answer?.ok) resolve(answer.result as TaskResults[K]);
        else if (answer) reject(new Error(answer.error));
        else
          reject(
            new Error(
              `worker exited (${signal ?? `code ${code}`}) without a result${stderr ? `:\n${stderr.trim()}` : ""}`,
            ),
          );
      });
    });
    child.send(task);
  });
  // Settled either way, then the orphans: the run's outcome is kept as it was.
  return run.finally(() => orphansGone(before));
}
