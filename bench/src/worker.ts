/**
 * A fresh process for one measurement: it receives one task over IPC, loads
 * only the contender it needs (so no other library inflates its memory or
 * start-up), runs the task, sends the result back and exits.
 */
import { loadContender } from "./contenders/load.js";
import type { Task, TaskResults, WorkerMessage } from "./tasks.js";

async function run(task: Task): Promise<TaskResults[Task["kind"]]> {
  switch (task.kind) {
    case "prime-cache":
      return (await import("./contenders/mcp-rt.js")).primeCache(task);
    case "cache-stores":
      return (await import("./contenders/cache-stores.js")).cacheStores(task);
    case "startup":
      return (await loadContender(task.contender)).startup(task);
    case "calls": {
      const contender = await loadContender(task.contender);
      if (!contender.calls) throw new Error(`${task.contender} has no calls benchmark`);
      return contender.calls(task);
    }
    case "reload": {
      const contender = await loadContender(task.contender);
      if (!contender.reload) throw new Error(`${task.contender} has no reload benchmark`);
      return contender.reload(task);
    }
    case "tool-calls": {
      const contender = await loadContender(task.contender);
      if (!contender.toolCalls) throw new Error(`${task.contender} has no tool-calls benchmark`);
      return contender.toolCalls(task);
    }
  }
}

function reply(message: WorkerMessage): void {
  // Exit right after the answer is out: a library that keeps a handle open must
  // not turn into a timeout, and what is left running was already counted.
  process.send?.(message, () => process.exit(0));
}

process.once("message", (task: Task) => {
  run(task).then(
    (result) => reply({ ok: true, result }),
    (error: unknown) =>
      reply({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
