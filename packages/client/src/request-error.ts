import { McpRtError } from "@mcp-rt/config";
import { abortError, errorText, inConfig } from "@mcp-rt/config/util";
import { ProtocolErrorCode, SdkErrorCode } from "@modelcontextprotocol/client";
import { stderrOf } from "./client-transport.js";
import type { ConnectionInternals, MCPServerConnection } from "./connection.js";
import { InputRequestError, MAX_INPUT_ROUNDS } from "./elicitation.js";
import { describeExit, errnoOf, rpcCode, sdkCode, withoutSecrets, withStderr } from "./error-text.js";
import { tooLargeReasonOf } from "./message-limit.js";
import { networkErrorOf } from "./oauth/network-error.js";
import { httpFailureError, UNREACHABLE_ERRNOS } from "./remote/http-error.js";

/** The facts a failed request is explained from. */
export interface RequestFailure {
  connection: MCPServerConnection;
  internals: ConnectionInternals;
  error: unknown;
  /** What was sent, for messages: `call of tool "x"`, `tools/list request`. */
  what: string;
  /** The tool, for `callTool`. */
  toolName?: string;
  /** The URI, for `readResource`. */
  resourceUri?: string;
  /** The config field that sets the limit: `toolTimeout` or `timeout`. */
  timeoutField: "toolTimeout" | "timeout";
  timeoutMs: number;
  /** What the connect took of the same budget before the request, in ms (a first `tools/list`). */
  connectMs?: number;
  maxTotalTimeoutMs?: number;
  /** The request ran past `maxTotalTimeoutMs` (however much progress came). */
  pastTotal?: boolean;
  signal: AbortSignal | undefined;
  deadline?: AbortSignal;
}

/** `30000 ms`, or for a request that had what the connect left: `30000 ms with the connect (29990 ms of it)`. */
function timeoutText({ timeoutMs, connectMs }: RequestFailure): string {
  if (!connectMs) return `${timeoutMs} ms`;
  return `${Math.round(connectMs + timeoutMs)} ms with the connect (${Math.round(connectMs)} ms of it)`;
}

/** Why a connection cannot take requests: "process exited with code 1" etc. */
export function closedReason(internals: ConnectionInternals): string {
  const event = internals.closeEvent();
  if (event?.expected) return "the connection was closed by the client";
  const { transport } = internals;
  const exit = transport.kind === "stdio" ? transport.exit : undefined;
  return transport.closeReason ?? (exit ? describeExit(exit) : "the server closed the connection");
}

/** The error of a request on a connection that has already closed. */
export function notConnectedError(
  connection: MCPServerConnection,
  internals: ConnectionInternals,
  what: string,
): McpRtError {
  // After closeConnection, what the server said on its way out explains nothing.
  const stderrTail = internals.closeEvent()?.expected ? undefined : stderrOf(internals.transport);
  const message = `Cannot send ${what} to MCP server "${connection.name}": ${closedReason(internals)}`;
  return new McpRtError("TRANSPORT_CLOSED", withStderr(message, stderrTail), {
    server: connection.name,
    ...(stderrTail ? { stderrTail } : {}),
  });
}

/**
 * Turns whatever an SDK request threw into what `callTool` / `listTools`
 * promise: an `AbortError` for an abort, else an `McpRtError` whose message
 * carries no credential (`withoutSecrets`).
 */
export function toRequestError(failure: RequestFailure): Error {
  const { connection, internals } = failure;
  return withoutSecrets(describeRequestError(failure), {
    config: internals.resolvedConfig,
    written: connection.config,
  });
}

function describeRequestError(failure: RequestFailure): Error {
  const { connection, internals, error, what } = failure;
  const server = connection.name;
  if (failure.signal?.aborted) {
    return abortError(`The ${what} to MCP server "${server}"`, failure.signal.reason);
  }
  // A sign-in the request needed, which failed or was aborted, explains itself.
  if (
    McpRtError.isInstance(error) &&
    (error.code === "AUTH_REQUIRED" || error.code === "SIGN_IN_REQUIRED" || error.code === "ABORTED")
  )
    return error;
  const code = rpcCode(error);
  const { transport } = internals;
  const stderrTail = stderrOf(transport);
  const base = { server, cause: error, ...(stderrTail ? { stderrTail } : {}) };

  if (failure.deadline?.aborted || sdkCode(error) === SdkErrorCode.RequestTimeout) {
    const total = failure.pastTotal === true && failure.maxTotalTimeoutMs !== undefined;
    const limit = total
      ? `ran past its maximum of ${failure.maxTotalTimeoutMs} ms despite progress (raise "maxTotalTimeout")`
      : `timed out after ${timeoutText(failure)} (raise "${failure.timeoutField}" ${inConfig(internals.sourcePath)})`;
    return new McpRtError("REQUEST_TIMEOUT", `The ${what} to MCP server "${server}" ${limit}`, base);
  }
  const input = inputRequiredError(failure, base);
  if (input) return input;
  const tooLarge = tooLargeReasonOf(error);
  if (tooLarge) {
    return new McpRtError(
      "LIMIT_EXCEEDED",
      `The ${what} to MCP server "${server}" failed: ${tooLarge}`,
      base,
    );
  }
  const http = transport.kind === "stdio" ? undefined : transport.httpFailureOf(error);
  if (http) {
    return httpFailureError({
      name: server,
      failure: http,
      lead: `The ${what} to MCP server "${server}" failed`,
      sourcePath: internals.sourcePath,
      cause: error,
    });
  }
  const network = networkErrorOf(error);
  if (network && !UNREACHABLE_ERRNOS.has(network.code) && transport.kind !== "stdio") {
    return new McpRtError(
      "HTTP_ERROR",
      `The ${what} to MCP server "${server}" failed: the network connection broke mid-request (${network.message}); the server may have crashed or restarted`,
      { ...base, details: { errno: network.code } },
    );
  }
  // A write into a pipe whose reader just died fails with EPIPE & co. before the close is reported;
  // a remote server that stopped listening fails with ECONNREFUSED & co. (An SdkError's code is no errno.)
  const local = sdkCode(error);
  const errno = (local === undefined && errnoOf(error) !== undefined) || network !== undefined;
  if (
    local === SdkErrorCode.ConnectionClosed ||
    local === SdkErrorCode.NotConnected ||
    connection.closed ||
    errno
  ) {
    const breach = transport.kind === "stdio" ? transport.limitBreach : undefined;
    if (breach) {
      return new McpRtError(
        "LIMIT_EXCEEDED",
        `The ${what} to MCP server "${server}" failed: ${breach}`,
        base,
      );
    }
    const message = `MCP server "${server}" closed the connection during the ${what}: ${closedReason(internals)}`;
    const details = transport.closeDetails;
    return new McpRtError("TRANSPORT_CLOSED", withStderr(message, stderrTail), {
      ...base,
      details,
    });
  }
  if (
    failure.toolName !== undefined &&
    code === ProtocolErrorCode.InvalidParams &&
    /not found|unknown tool/i.test(errorText(error))
  ) {
    const message = `MCP server "${server}" has no tool "${failure.toolName}" (${errorText(error)}); list its tools again`;
    return new McpRtError("TOOL_NOT_FOUND", message, { ...base, details: { rpcCode: code } });
  }
  // -32602 since 2026-07-28 (SEP-2164), -32002 before: both say the URI is unknown.
  if (
    failure.resourceUri !== undefined &&
    (code === ProtocolErrorCode.InvalidParams || code === ProtocolErrorCode.ResourceNotFound)
  ) {
    const message = `MCP server "${server}" has no resource ${JSON.stringify(failure.resourceUri)} (error ${code}: ${errorText(error)}); list its resources again`;
    return new McpRtError("PROTOCOL_ERROR", message, {
      ...base,
      details: { rpcCode: code, resourceNotFound: true },
    });
  }
  if (code !== undefined) {
    const hint =
      code === ProtocolErrorCode.MissingRequiredClientCapability
        ? " (mcp-rt declares the elicitation capability only with an onElicitation handler, and never sampling)"
        : "";
    return new McpRtError(
      "PROTOCOL_ERROR",
      `MCP server "${server}" answered the ${what} with error ${code}: ${errorText(error)}${hint}`,
      { ...base, details: { rpcCode: code } },
    );
  }
  return new McpRtError(
    "PROTOCOL_ERROR",
    `The ${what} to MCP server "${server}" failed: ${errorText(error)}`,
    base,
  );
}

/**
 * What went wrong answering an `input_required` result (2026-07-28): too many
 * rounds, input the client has no handler for, or an answer it could not give.
 */
function inputRequiredError(
  { connection, error, what }: RequestFailure,
  base: { server: string; cause: unknown; stderrTail?: string },
): McpRtError | undefined {
  const server = connection.name;
  if (error instanceof InputRequestError) {
    return new McpRtError(
      "PROTOCOL_ERROR",
      `MCP server "${server}" asked for input during the ${what} that the client could not give: ${error.message}`,
      base,
    );
  }
  const local = sdkCode(error);
  if (local === SdkErrorCode.InputRequiredRoundsExceeded) {
    return new McpRtError(
      "LIMIT_EXCEEDED",
      `MCP server "${server}" still asked for input (input_required) after ${MAX_INPUT_ROUNDS} rounds of the ${what}; mcp-rt answers at most ${MAX_INPUT_ROUNDS}`,
      { ...base, details: { rounds: MAX_INPUT_ROUNDS } },
    );
  }
  if (local === SdkErrorCode.CapabilityNotSupported) {
    const method = (error as { data?: { method?: unknown } }).data?.method;
    const asked = typeof method === "string" ? method : "input";
    const fix =
      asked === "elicitation/create"
        ? "; pass onElicitation to connectToServer (or to the manager) to answer it"
        : ", which mcp-rt does not answer";
    return new McpRtError(
      "PROTOCOL_ERROR",
      `MCP server "${server}" asked for ${asked} during the ${what} (input_required)${fix}`,
      base,
    );
  }
  return undefined;
}
