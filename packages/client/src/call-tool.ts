import { type CallToolResult, type Progress, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import type { MCPServerConnection } from "./connection.js";
import { getConnectionInternals } from "./connection.js";
import { sdkCode } from "./error-text.js";
import { followSignal } from "./follow-signal.js";
import { paramHeaders } from "./mcp-param-headers.js";
import type { WatchedCall } from "./progress-calls.js";
import { notConnectedError, toRequestError } from "./request-error.js";
import { checkAgainstSchema } from "./schema-check.js";
import { checkTimeOption, timerMs } from "./time-limit.js";

/** Per-call limit used when neither the call nor the config sets one, in ms. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/** A progress notification of a running call. */
export type MCPProgress = Progress;

/** Options of {@link callTool}. */
export interface CallToolOptions {
  /** The tool's name, as the server lists it. */
  name: string;
  /** The tool's arguments: a JSON object, or undefined for none. */
  args?: unknown;
  /** Aborts the call: the server receives `notifications/cancelled` and the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
  /**
   * Limit without progress, in ms; each progress notification restarts it. On a 2026-07-28
   * connection it runs on through the `input_required` rounds, the user's answers included.
   * @default config.toolTimeout ?? 60000
   */
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
  options: CallToolOptions,
): Promise<CallToolResult> {
  const { name: toolName, args } = options;
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
  // The call's own signal: the caller's, followed only while the call runs (a caller may reuse one
  // signal for many calls), and the limit without progress, restarted by each notification
  // (progress-calls.ts says why not the SDK's `onprogress`). The SDK keeps the limit however much
  // progress arrives.
  const call = new ToolCall(timeoutMs, options.onProgress, internals.progress.takeController());
  const unfollow = options.signal ? followSignal(options.signal, (reason) => call.abort(reason)) : undefined;
  // Always ask for progress: it is what keeps a long call alive past `timeout`.
  const progressToken = internals.progress.add(call);
  const declarations = internals.paramHeaders.get(toolName);
  const headers = declarations && paramHeaders(declarations, args);
  const totalMs = timerMs(maxTotalTimeoutMs);
  try {
    // A plain request: the SDK's callTool throws away a result whose structuredContent does not
    // match the tool's outputSchema; the caller checks it instead (checkStructuredContent) and keeps the content.
    return await internals.client.request(
      {
        method: "tools/call",
        params: {
          name: toolName,
          arguments: (args ?? {}) as Record<string, unknown>,
          _meta: { progressToken },
        },
      },
      // `maxTotalTimeout` too: the SDK's `input_required` loop (2026-07-28) starts no round past it.
      headers
        ? { signal: call.signal, timeout: totalMs, maxTotalTimeout: totalMs, headers }
        : { signal: call.signal, timeout: totalMs, maxTotalTimeout: totalMs },
    );
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
      // The SDK's own limit on the call is the total one; the quiet one aborts it from here.
      pastTotal: !call.quietTooLong && sdkCode(error) === SdkErrorCode.RequestTimeout,
      signal: options.signal,
    });
  } finally {
    internals.progress.delete(progressToken);
    unfollow?.();
    // Last: nothing can abort the call's signal any more, so an unaborted one can serve the next call.
    internals.progress.giveBack(call.controller);
  }
}

/** What a call is called in its errors: `call of tool "<name>"`. */
function callOf(toolName: string): string {
  return `call of tool "${toolName}"`;
}

/**
 * One call in flight: the `AbortSignal` the SDK gets for its request (a real
 * one: the SDK adds and removes its listener, and a stand-in would have to
 * follow `AbortSignal` wherever the SDK goes; its controller comes from the
 * connection's {@link ProgressCalls}, which reuses unaborted ones), and what
 * that {@link ProgressCalls} watches (progress, the limit without it).
 */
class ToolCall implements WatchedCall {
  readonly quietMs: number;
  token = 0;
  deadline = 0;
  /** Set when the limit without progress ended the call. */
  quietTooLong = false;
  readonly #timeoutMs: number;
  readonly #onProgress: ((progress: MCPProgress) => void) | undefined;
  /** What aborts the request; handed back to the connection when the call settles. */
  readonly controller: AbortController;

  constructor(
    timeoutMs: number,
    onProgress: ((progress: MCPProgress) => void) | undefined,
    controller: AbortController,
  ) {
    this.quietMs = timerMs(timeoutMs);
    this.#timeoutMs = timeoutMs;
    this.#onProgress = onProgress;
    this.controller = controller;
  }

  progressed(progress: Progress): void {
    try {
      this.#onProgress?.(progress);
    } catch {
      // A throwing progress listener must not fail the call.
    }
  }

  /** What the SDK's request listens to. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Aborts the request once, with `reason`. */
  abort(reason: unknown): void {
    this.controller.abort(reason);
  }

  tooQuiet(): void {
    if (this.controller.signal.aborted) return;
    this.quietTooLong = true;
    this.abort(new SdkError(SdkErrorCode.RequestTimeout, "Request timed out", { timeout: this.#timeoutMs }));
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
