import { fork } from "node:child_process";
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
}

const STDERR_TAIL = 4000;

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
  return new Promise((resolve, reject) => {
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
    // The answer counts once the worker has exited, so the next run never
    // overlaps with this one's teardown.
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
}
