import type { ToolCallSpec, ToolCallsResult, ToolCallsTask } from "../tasks.js";
import { cpuTime, since } from "./measure.js";

/** One contender's way to make a call: the answer's text, or a throw when the call failed. */
export type CallTool = (spec: ToolCallSpec) => Promise<string>;

/** The text of an answer's content blocks (MCP or agent-shaped), joined by newlines. */
export function textOf(content: ReadonlyArray<{ type: string; text?: string }>): string {
  return content
    .flatMap((block) => (block.type === "text" && block.text !== undefined ? [block.text] : []))
    .join("\n");
}

/**
 * Runs `task.warmupRounds` untimed rounds, then `task.rounds` timed ones, of
 * every call in `task.calls`, one after another; each answer must contain its
 * `expect` text, or the run fails. Times each call, summed per server.
 */
export async function timeToolCalls(
  who: string,
  task: ToolCallsTask,
  call: CallTool,
): Promise<ToolCallsResult> {
  const one = async (spec: ToolCallSpec): Promise<void> => {
    const text = await call(spec);
    if (!text.includes(spec.expect)) {
      throw new Error(
        `${who}: ${spec.server}/${spec.tool} answered ${JSON.stringify(text.slice(0, 200))}, expected it to contain ${JSON.stringify(spec.expect)}`,
      );
    }
  };
  for (let round = 0; round < task.warmupRounds; round++) {
    for (const spec of task.calls) await one(spec);
  }
  const perServer: ToolCallsResult["perServer"] = {};
  for (const spec of task.calls) perServer[spec.server] = { ms: 0, calls: 0 };
  const cpu = cpuTime();
  const start = performance.now();
  for (let round = 0; round < task.rounds; round++) {
    for (const spec of task.calls) {
      const callStart = performance.now();
      await one(spec);
      const server = perServer[spec.server]!;
      server.ms += since(callStart);
      server.calls++;
    }
  }
  const ms = since(start);
  return { kind: "tool-calls", ms, cpuMs: cpu(), calls: task.rounds * task.calls.length, perServer };
}
