import { existsSync } from "node:fs";
import { isStdioConfig, type MCPServerConfig, McpRtError } from "@mcp-rt/config";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { ClientTransport } from "./client-transport.js";
import { resolveServerCwd } from "./create-transport.js";
import { describeExit, errorText, inConfig, rpcCode, withStderr } from "./error-text.js";
import type { ProcessExit } from "./stdio-transport.js";

/** The facts a failed `connectToServer` is explained from. */
export interface ConnectFailure {
  name: string;
  config: MCPServerConfig;
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
}

/** Turns whatever `Client.connect` threw into an `McpRtError` a user can act on. */
export function toConnectError(failure: ConnectFailure): McpRtError {
  const { name, config, error, transport, sourcePath } = failure;
  const stderrTail = transport.stderrTail() || undefined;
  const where = inConfig(sourcePath);
  const base = { server: name, cause: error, ...(stderrTail ? { stderrTail } : {}) };
  const noise = transport.stdoutNoise
    ? `; it wrote output that is not JSON-RPC on stdout (${transport.stdoutNoise}) — an MCP server must log to stderr`
    : "";

  if (failure.signal?.aborted) {
    return new McpRtError("ABORTED", `Connection to MCP server "${name}" was aborted`, base);
  }

  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  if (transport.pid === undefined && typeof errno === "string" && isStdioConfig(config)) {
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

  if (failure.deadline.aborted || rpcCode(error) === ErrorCode.RequestTimeout) {
    const message = `Connection to MCP server "${name}" timed out after ${failure.timeoutMs} ms (raise "timeout" ${where})${noise}`;
    return new McpRtError("CONNECT_TIMEOUT", withStderr(message, stderrTail), base);
  }

  const fail = `Connection to MCP server "${name}" failed`;
  const exit = failure.exit;
  if (exit) {
    const message = `${fail}: ${describeExit(exit)} before initializing${noise}`;
    return new McpRtError("INIT_FAILED", withStderr(message, stderrTail), {
      ...base,
      details: { exitCode: exit.code, signal: exit.signal },
    });
  }

  const code = rpcCode(error);
  if (code === ErrorCode.ConnectionClosed) {
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
