import { type MCPToolDefinition, McpRtError } from "@mcp-rt/config";
import { timerMs } from "@mcp-rt/config/util";
import { type CallToolResult, type Progress, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { progressCallsOf, type WatchedCall } from "./call-progress.js";
import type { MCPServerConnection } from "./connection.js";
import { rpcCode, sdkCode } from "./error-text.js";
import { followSignal } from "./follow-signal.js";
import { listTools } from "./list-tools.js";
import {
  invalidHeaderText,
  type ParamHeaderDeclaration,
  paramHeaders,
  scanParamHeaders,
} from "./remote/mcp-param-headers.js";
import { notConnectedError, toRequestError } from "./request-error.js";
import { checkAgainstSchema } from "./schema-check.js";
import { getConnectionInternals } from "./server-connection.js";
import { checkTimeOption } from "./time-limit.js";

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
  signal?: AbortSignal | undefined;
  /**
   * Limit without progress, in ms; each progress notification restarts it. On a 2026-07-28
   * connection it runs on through the `input_required` rounds, the user's answers included.
   * @default config.toolTimeout ?? 60000
   */
  timeout?: number;
  /** Limit however much progress arrives, in ms (`Infinity` for none). @default 10 × timeout */
  maxTotalTimeout?: number;
  /** Receives the server's progress notifications for this call. */
  onProgress?: ((progress: MCPProgress) => void) | undefined;
  /**
   * The tool's definition as listed earlier (e.g. from a cache), for its
   * `x-mcp-header` marks when this connection has not listed the tool itself:
   * a 2026-07-28 Streamable HTTP server wants the marked arguments as
   * `Mcp-Param-*` headers (SEP-2243). A definition whose marks are invalid is
   * refused (`PROTOCOL_ERROR`): the spec says such a tool must not be called.
   */
  tool?: MCPToolDefinition | undefined;
}

/** JSON-RPC `HeaderMismatch` (SEP-2243): the `Mcp-Param-*` headers do not match the tool as the server knows it. */
const HEADER_MISMATCH = -32020;

/**
 * Calls one tool and returns its result as the server sent it (`content`,
 * `structuredContent`, `isError`). A tool that fails reports `isError: true`
 * in the result; the promise rejects only when the call itself fails:
 * `AbortError` on abort, `McpRtError` with `REQUEST_TIMEOUT`,
 * `TRANSPORT_CLOSED`, `TOOL_NOT_FOUND` or `PROTOCOL_ERROR` otherwise.
 * `structuredContent` is returned as sent, checked or not: see
 * {@link checkStructuredContent}. On a 2026-07-28 Streamable HTTP connection
 * the arguments marked `x-mcp-header` also go as `Mcp-Param-*` headers, and a
 * `HeaderMismatch` (-32020) lists the tools again and retries the call once.
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
  // (ProgressCalls says why not the SDK's `onprogress`). The SDK keeps the limit however much
  // progress arrives.
  const progress = progressCallsOf(internals.client);
  const call = new ToolCall(timeoutMs, options.onProgress, progress.takeController());
  const unfollow = options.signal ? followSignal(options.signal, (reason) => call.abort(reason)) : undefined;
  // Always ask for progress: it is what keeps a long call alive past `timeout`.
  const progressToken = progress.add(call);
  const totalMs = timerMs(maxTotalTimeoutMs);
  // A plain request: the SDK's callTool throws away a result whose structuredContent does not
  // match the tool's outputSchema; the caller checks it instead (checkStructuredContent) and keeps the content.
  const send = (declarations: readonly ParamHeaderDeclaration[] | undefined): Promise<CallToolResult> => {
    const headers = declarations && paramHeaders(declarations, args);
    return internals.client.request(
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
  };
  try {
    const modernHttp = connection.era === "modern" && connection.transport === "http";
    const declarations =
      internals.paramHeaders.get(toolName) ??
      (modernHttp && options.tool ? declaredHeaders(connection.name, options.tool) : undefined);
    try {
      return await send(declarations);
    } catch (error) {
      if (!modernHttp || rpcCode(error) !== HEADER_MISMATCH || call.signal.aborted) throw error;
      // The server knows the tool otherwise than we do: list again (which renews the marks), then once more.
      await listTools(connection, { signal: call.signal, timeout: timeoutMs });
      return await send(internals.paramHeaders.get(toolName));
    }
  } catch (error) {
    if (McpRtError.isInstance(error) && error.server === connection.name) throw error;
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
    progress.delete(progressToken);
    unfollow?.();
    // Last: nothing can abort the call's signal any more, so an unaborted one can serve the next call.
    progress.giveBack(call.controller);
  }
}

/** The `x-mcp-header` marks of a definition listed earlier; a tool whose marks are invalid is not called. */
function declaredHeaders(server: string, tool: MCPToolDefinition): readonly ParamHeaderDeclaration[] {
  const scan = scanParamHeaders(tool.inputSchema);
  if (scan.valid) return scan.declarations;
  throw new McpRtError("PROTOCOL_ERROR", invalidHeaderText(server, tool.name, scan.reason), {
    server,
    details: { tool: tool.name },
  });
}

/** What a call is called in its errors: `call of tool "<name>"`. */
function callOf(toolName: string): string {
  return `call of tool "${toolName}"`;
}

/**
 * One call in flight: what {@link ProgressCalls} watches, and the real
 * `AbortSignal` the SDK gets for its request (the SDK adds and removes its listener).
 */
class ToolCall implements WatchedCall {
  readonly quietMs: number;
  token = 0;
  deadline = 0;
  /** Set when the limit without progress ended the call. */
  quietTooLong = false;
  readonly #timeoutMs: number;
  readonly #onProgress: ((progress: MCPProgress) => void) | undefined;
  /** What aborts the request; handed back to {@link ProgressCalls} when the call settles. */
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

  get signal(): AbortSignal {
    return this.controller.signal;
  }

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
