import { existsSync } from "node:fs";
import { isStdioConfig, type MCPServerConfig, McpRtError } from "@mcp-rt/config";
import { errorText, inConfig } from "@mcp-rt/config/util";
import { SdkErrorCode } from "@modelcontextprotocol/client";
import type { ProcessExit } from "./client-transport.js";
import { type ClientTransport, type RemoteClientTransport, stderrOf } from "./client-transport.js";
import { describeExit, errnoOf, rpcCode, sdkCode, withoutSecrets, withStderr } from "./error-text.js";
import { tooLargeReasonOf } from "./message-limit.js";
import { networkErrorOf } from "./oauth/network-error.js";
import { httpFailureError } from "./remote/http-error.js";
import { displayUrl } from "./remote/remote-fetch.js";
import { resolveServerCwd } from "./stdio/server-process.js";

/** The facts a failed `connectToServer` is explained from. */
export interface ConnectFailure {
  name: string;
  config: MCPServerConfig;
  /** `config` before its `!command` values ran, when the caller resolved it. */
  written?: MCPServerConfig | undefined;
  error: unknown;
  transport: ClientTransport;
  /** How the process had ended when the handshake failed (before we stopped it), if it had. */
  exit: ProcessExit | undefined;
  timeoutMs: number;
  /** The caller's signal. */
  signal: AbortSignal | undefined;
  /** The connect timeout's signal. */
  deadline: AbortSignal;
  /** The agent's cwd. */
  cwd: string;
  sourcePath: string | undefined;
  /** Set when a URL without `type` fell back to SSE: what Streamable HTTP answered first. */
  fallbackFrom?: { kind: "stdio" | "http" | "sse"; status: number } | undefined;
}

/**
 * Turns whatever `Client.connect` threw into an `McpRtError` a user can act
 * on, its message without the config's secrets, URL credentials or token
 * shapes (`redactConfigText`): what the server or the network answered may quote them.
 */
export function toConnectError(failure: ConnectFailure): McpRtError {
  return withoutSecrets(describeConnectError(failure), { config: failure.config, written: failure.written });
}

function describeConnectError(failure: ConnectFailure): McpRtError {
  const { name, config, error, transport, sourcePath } = failure;
  const stdio = transport.kind === "stdio" ? transport : undefined;
  const stderrTail = stderrOf(transport);
  const where = inConfig(sourcePath);
  const base = { server: name, cause: error, ...(stderrTail ? { stderrTail } : {}) };
  const noise = stdio?.stdoutNoise
    ? `; it wrote output that is not JSON-RPC on stdout (${stdio.stdoutNoise}) — an MCP server must log to stderr`
    : "";

  if (failure.signal?.aborted) {
    return new McpRtError("ABORTED", `Connection to MCP server "${name}" was aborted`, base);
  }
  // The OAuth session's own errors (its storage could not be read) explain themselves.
  if (McpRtError.isInstance(error, "AUTH_REQUIRED", "SIGN_IN_REQUIRED")) return error;

  const errno = errnoOf(error);
  if (stdio?.pid === undefined && errno !== undefined && isStdioConfig(config)) {
    const cwd = resolveServerCwd(config.cwd, failure.cwd);
    let what: string;
    if (errno === "ENOENT" && !existsSync(cwd)) {
      what = `working folder does not exist: ${cwd} (fix "cwd" ${where})`;
    } else if (errno === "ENOENT") {
      what = `command not found: ${config.command} (install it or put it on PATH, or fix "command" ${where})`;
    } else if (errno === "EACCES") {
      what = `permission denied running ${config.command} (make it executable, or fix "command" ${where})`;
    } else {
      what = `${errorText(error)} (check "command" and "cwd" ${where})`;
    }
    return new McpRtError("SPAWN_FAILED", `Cannot start MCP server "${name}": ${what}`, {
      ...base,
      details: { errno },
    });
  }

  if (failure.deadline.aborted || sdkCode(error) === SdkErrorCode.RequestTimeout) {
    const message = `Connection to MCP server "${name}" timed out after ${failure.timeoutMs} ms (raise "timeout" ${where})${noise}`;
    return new McpRtError("CONNECT_TIMEOUT", withStderr(message, stderrTail), base);
  }

  const fail = `Connection to MCP server "${name}" failed`;
  const tooLarge = stdio?.limitBreach ?? tooLargeReasonOf(error);
  if (tooLarge) return new McpRtError("LIMIT_EXCEEDED", withStderr(`${fail}: ${tooLarge}`, stderrTail), base);
  const exit = failure.exit;
  if (exit) {
    const check = `check "command" and "args" ${where}`;
    const hint =
      exit.code === 0
        ? ` (a stdio MCP server keeps running and reads requests on stdin; ${check})`
        : stderrTail
          ? ""
          : ` and wrote nothing to stderr (${check})`;
    const message = `${fail}: ${describeExit(exit)} before initializing${hint}${noise}`;
    return new McpRtError("INIT_FAILED", withStderr(message, stderrTail), {
      ...base,
      details: { exitCode: exit.code, signal: exit.signal },
    });
  }

  if (transport.kind !== "stdio") {
    const remote = toRemoteConnectError(failure, transport, fail);
    if (remote) return remote;
  }

  const code = rpcCode(error);
  if (sdkCode(error) === SdkErrorCode.ConnectionClosed) {
    const message = `${fail}: the connection closed before initializing${noise}`;
    return new McpRtError("TRANSPORT_CLOSED", withStderr(message, stderrTail), base);
  }
  if (code !== undefined) {
    const message = `${fail}: the server rejected "initialize" (${code}: ${errorText(error)})`;
    return new McpRtError("INIT_FAILED", withStderr(message, stderrTail), {
      ...base,
      details: { rpcCode: code },
    });
  }
  return new McpRtError("INIT_FAILED", withStderr(`${fail}: ${errorText(error)}${noise}`, stderrTail), base);
}

/** The connect errors only a remote server has: HTTP error statuses and unreachable addresses. */
function toRemoteConnectError(
  failure: ConnectFailure,
  transport: RemoteClientTransport,
  fail: string,
): McpRtError | undefined {
  const { name, error, sourcePath, config } = failure;
  const tried = failure.fallbackFrom
    ? `; Streamable HTTP was tried first and answered HTTP ${failure.fallbackFrom.status}, so the legacy SSE transport was tried too`
    : "";
  const http = transport.httpFailureOf(error);
  if (http) {
    const mapped = httpFailureError({ name, failure: http, lead: fail, sourcePath, cause: error });
    const { fallbackFrom } = failure;
    if (!fallbackFrom) return mapped;
    return mapped.with({
      message: `${mapped.message}${tried}`,
      ...(mapped.details ? { details: { ...mapped.details, fallbackFrom } } : {}),
    });
  }
  const url = "url" in config ? displayUrl(config.url) : "";
  const network = networkErrorOf(error);
  if (network) {
    return new McpRtError(
      "HTTP_ERROR",
      `${fail}: cannot reach ${url} (${network.message}); is the server running? Check "url" ${inConfig(sourcePath)}${tried}`,
      { server: name, cause: error, details: { errno: network.code, url } },
    );
  }
  if (rpcCode(error) !== undefined) return undefined;
  // fetch's own errors say little ("fetch failed"); the reason is in their cause ("bad port").
  const cause = error instanceof TypeError && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return new McpRtError(
    "INIT_FAILED",
    `${fail}: ${errorText(error)}${cause} (is ${url} an MCP endpoint? Check "url" ${inConfig(sourcePath)})${tried}`,
    { server: name, cause: error },
  );
}
