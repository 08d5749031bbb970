import { type MCPServerConfig, McpRtError } from "@mcp-rt/config";
import type { MCPServerState } from "../manager-types.js";
import type { ServerView } from "./server-record.js";

/** Failed or waiting for a sign-in: its last error says why, and what to do. */
function stopped(server: ServerView): boolean {
  return server.phase === "failed" || server.phase === "needs-auth";
}

/** Why `server` is not connected any more, after it was. */
export function dropError(server: ServerView): McpRtError {
  return (
    server.lastError ??
    new McpRtError("TRANSPORT_CLOSED", `MCP server "${server.name}" disconnected`, { server: server.name })
  );
}

/**
 * Why `waitForConnection` cannot wait for `server` (no attempt under way): its
 * failure, or `NOT_CONNECTED` (also while it waits for a reconnect attempt).
 */
export function notConnected(server: ServerView): McpRtError {
  const { name, reconnectAttempt, lastError, disconnectReason } = server;
  if (stopped(server) && lastError) return lastError;
  const why = disconnectReason ? ` (${disconnectReason})` : "";
  const next =
    reconnectAttempt === undefined
      ? "reconnect it, e.g. with /mcp reload"
      : `it is being reconnected (attempt ${reconnectAttempt})`;
  return new McpRtError("NOT_CONNECTED", `MCP server "${name}" is not connected${why}; ${next}`, {
    server: name,
  });
}

/** Why the tools of `server` cannot be called now: it is neither connected nor connecting, or it is being reconnected. */
export function unavailable(server: ServerView): string {
  const { name, reconnectAttempt, lastError } = server;
  if (stopped(server) && lastError) return `server "${name}" is unavailable: ${lastError.message}`;
  const why = server.disconnectReason ?? "it is not connected";
  if (reconnectAttempt !== undefined) {
    return `server "${name}" disconnected: ${why}. It is being reconnected (attempt ${reconnectAttempt}); try again in a moment`;
  }
  return `server "${name}" disconnected: ${why}. Reconnect it (e.g. /mcp reload) to use its tools`;
}

/** `server` as a UI shows it: a copy, which the server's later changes leave alone. */
export function serverState(server: ServerView): MCPServerState {
  const { reconnectAttempt, protocol, notWaitedFor, lastError } = server;
  const state: MCPServerState = {
    name: server.name,
    status: uiStatus(server),
    toolCount: server.definitions.length,
    deferred: server.deferred,
  };
  const { resources, resourceTemplates, prompts } = server.content;
  if (resources.length + resourceTemplates.length > 0)
    state.resourceCount = resources.length + resourceTemplates.length;
  if (prompts.length > 0) state.promptCount = prompts.length;
  if (server.appOnlyTools.length > 0) state.appOnlyTools = [...server.appOnlyTools];
  if (server.held.length > 0) state.heldTools = server.held.map((tool) => tool.name);
  if (server.findings.length > 0) state.findingCount = server.findings.length;
  if (server.instructions !== undefined) state.instructions = server.instructions;
  if (server.source) state.source = server.source;
  // The config of a record may be anything a caller passed (validation names the problem).
  if ((server.config as Partial<MCPServerConfig> | null)?.alwaysLoad === true) state.alwaysLoad = true;
  if (reconnectAttempt !== undefined) state.reconnectAttempt = reconnectAttempt;
  if (server.connectedMs !== undefined) state.connectedMs = server.connectedMs;
  if (server.queuedMs) state.queuedMs = server.queuedMs;
  if (protocol) state.protocol = { ...protocol, decision: { ...protocol.decision } };
  if (notWaitedFor) state.notWaitedFor = { ...notWaitedFor };
  if (lastError) {
    const { code, message, stderrTail } = lastError;
    state.lastError = { code, message, ...(stderrTail ? { stderrTail } : {}) };
  }
  return state;
}

function uiStatus(server: ServerView): MCPServerState["status"] {
  if (server.inOutage) return "reconnecting";
  if (server.phase === "failed" || server.phase === "needs-auth") return server.phase;
  return server.status;
}
