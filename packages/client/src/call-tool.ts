import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { type CallToolResult, CallToolResultSchema, type Progress } from "@modelcontextprotocol/sdk/types.js";
import type { MCPServerConnection } from "./connection.js";
import { getConnectionInternals } from "./connection.js";
import { linkSignal } from "./linked-signal.js";
import { notConnectedError, toRequestError } from "./request-error.js";
import { checkAgainstSchema } from "./schema-check.js";
import { checkTimeOption, timerMs } from "./time-limit.js";

/** Per-call limit used when neither the call nor the config sets one, in ms. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** A progress notification of a running call. */
export type MCPProgress = Progress;

/** Options of {@link callTool}. */
export interface CallToolOptions {
  /** Aborts the call: the server receives `notifications/cancelled` and the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Limit without progress, in ms; each progress notification restarts it. @default config.toolTimeout ?? 60000 */
  timeout?: number;
  /** Limit however much progress arrives, in ms (`Infinity` for none). @default 10 × timeout */
  maxTotalTimeout?: number;
  /** Receives the server's progress notifications for this call. */
  onProgress?(progress: MCPProgress): void;
}

/**
 * Calls one tool and returns its result as the server sent it (`content`,
 * `structuredContent`, `isError`). A tool that fails reports `isError: true`
 * in the result; the promise rejects only when the call itself fails:
 * `AbortError` on abort, `McpRtError` with `REQUEST_TIMEOUT`,
 * `TRANSPORT_CLOSED`, `TOOL_NOT_FOUND` or `PROTOCOL_ERROR` otherwise.
 * `structuredContent` is returned as sent, checked or not: see
 * {@link checkStructuredContent}.
 */
export async function callTool(
  connection: MCPServerConnection,
  toolName: string,
  args: unknown,
  options: CallToolOptions = {},
): Promise<CallToolResult> {
  const internals = getConnectionInternals(connection);
  if (args !== undefined && args !== null && (typeof args !== "object" || Array.isArray(args))) {
    throw new TypeError(
      `Arguments of tool "${toolName}" on MCP server "${connection.name}" must be a JSON object, got ${Array.isArray(args) ? "an array" : typeof args}`,
    );
  }
  if (connection.closed) throw notConnectedError(connection, internals, callOf(toolName));

  checkTimeOption("timeout", options.timeout);
  checkTimeOption("maxTotalTimeout", options.maxTotalTimeout);
  const timeoutMs = options.timeout ?? connection.config.toolTimeout ?? DEFAULT_TOOL_TIMEOUT_MS;
  const maxTotalTimeoutMs = options.maxTotalTimeout ?? timeoutMs * 10;
  const onProgress = options.onProgress;
  const requestOptions: RequestOptions = {
    timeout: timerMs(timeoutMs),
    resetTimeoutOnProgress: true,
    maxTotalTimeout: maxTotalTimeoutMs,
    // Always ask for progress: it is what keeps a long call alive past `timeout`.
    onprogress: onProgress ? (progress: Progress) => deliverProgress(onProgress, progress) : ignoreProgress,
  };
  // A signal of our own, unlinked once the call settled: the SDK never removes the
  // abort listener it adds, and a caller may reuse one signal for many calls.
  const linked = options.signal ? linkSignal(options.signal) : undefined;
  if (linked) requestOptions.signal = linked.signal;
  try {
    // A plain request: the SDK's callTool throws away a result whose structuredContent does not
    // match the tool's outputSchema; the caller checks it instead (checkStructuredContent) and keeps the content.
    const result = await internals.client.request(
      {
        method: "tools/call",
        params: { name: toolName, arguments: (args ?? {}) as Record<string, unknown> },
      },
      CallToolResultSchema,
      requestOptions,
    );
    return result as CallToolResult;
  } catch (error) {
    throw toRequestError({
      connection,
      internals,
      error,
      what: callOf(toolName),
      toolName,
      timeoutField: "toolTimeout",
      timeoutMs,
      maxTotalTimeoutMs,
      signal: options.signal,
    });
  } finally {
    linked?.unlink();
  }
}

/** What a call is called in its errors: `call of tool "<name>"`. */
function callOf(toolName: string): string {
  return `call of tool "${toolName}"`;
}

/** The progress handler of a call nobody listens to: the SDK only needs one to ask for progress. */
function ignoreProgress(): void {}

function deliverProgress(onProgress: (progress: MCPProgress) => void, progress: Progress): void {
  try {
    onProgress(progress);
  } catch {
    // A throwing progress listener must not fail the call.
  }
}

/**
 * Whether a result's `structuredContent` fits the tool's `outputSchema`:
 * `undefined` when it does (or the tool has no schema, or the result is an
 * error), else what is wrong, for the caller to report next to the content.
 */
export function checkStructuredContent(
  outputSchema: Record<string, unknown> | undefined,
  result: { structuredContent?: unknown; isError?: unknown },
): string | undefined {
  if (!outputSchema || result.isError === true) return undefined;
  if (result.structuredContent === undefined) {
    return "the tool has an output schema but returned no structuredContent";
  }
  const problem = checkAgainstSchema(outputSchema, result.structuredContent);
  return problem === undefined
    ? undefined
    : `structuredContent does not match the tool's output schema: ${problem}`;
}
