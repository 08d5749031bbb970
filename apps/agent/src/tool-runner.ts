import { monotonicMs } from "@mcp-rt/config/util";
import type { CustomTool, ToolResult } from "@mcp-rt/session";
import type { Output } from "./output.js";

/** One block of a tool result as plain text: text as is, images as a short note. */
export function resultText(result: ToolResult): string {
  const parts = result.content.map((block) =>
    block.type === "text"
      ? block.text
      : `[image ${block.mimeType}, ${Math.round((block.data.length * 3) / 4 / 1024)} KiB]`,
  );
  return parts.join("\n") || "(no output)";
}

/** True for the rejection a tool call gives when its signal was aborted. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

/** Options of {@link runTool}. */
export interface RunToolOptions {
  output: Output;
  /** Aborted by Ctrl-C: the tool's server gets `notifications/cancelled`. */
  signal: AbortSignal;
  /** The id the model gave the call, if any. */
  callId?: string;
}

let calls = 0;

/**
 * Runs one tool and shows it: the call, any progress the server reports, and
 * the result (marked when the tool reported an error). Rejects only with an
 * `AbortError` when `signal` is aborted; every other failure is an error result.
 */
export async function runTool(tool: CustomTool, args: unknown, options: RunToolOptions): Promise<ToolResult> {
  const { output, signal } = options;
  const callId = options.callId ?? `call_${++calls}`;
  output.write("tool-call", `→ ${tool.name} ${JSON.stringify(args)}`, {
    tool: tool.name,
    label: tool.label,
    args,
    callId,
  });
  const started = monotonicMs();
  const result = await tool.execute(callId, args, signal, (partial) => {
    output.write("progress", `  … ${resultText(partial)}`, { tool: tool.name, callId });
  });
  const ms = Math.round(monotonicMs() - started);
  const text = resultText(result);
  output.write(
    "tool-result",
    `${result.isError ? "✗" : "←"} ${tool.name} (${ms} ms)${result.isError ? " failed" : ""}\n${text}`,
    { tool: tool.name, callId, isError: result.isError === true, ms, content: result.content },
  );
  return result;
}
