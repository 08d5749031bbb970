import type { MCPPromptResult, MCPResourceContents, MCPServerConnection } from "@mcp-rt/client";
import { McpRtError } from "@mcp-rt/config";
import { abortError, errorMessage } from "@mcp-rt/config/util";
import { client } from "../client-module.js";
import type { MCPGetPromptOptions, MCPReadResourceOptions, MCPRequestOptions } from "../manager-types.js";
import type { ServerLimits } from "../server/server-limits.js";
import { notConnected, unavailable } from "../server/server-state.js";
import type { ToolResult } from "../tools/custom-tool.js";
import type { LiveServer, MCPToolHost } from "../tools/mcp-tool.js";
import { toolErrorResult, toToolResult } from "../tools/tool-result.js";
import type { ServerTable } from "./server-table.js";

/** What {@link ServerRequests} works on: the fleet's table and the result budget. */
export interface ServerRequestsOptions {
  table: Pick<ServerTable, "get" | "unknown">;
  /** What each server may send, from the options (the result budget of `readResourceResult`). */
  limits: ServerLimits;
}

/**
 * What the manager asks of one server on the caller's behalf: wait for its
 * connection, read a resource, get a prompt, follow a resource; and what a
 * tool asks of its server when it is called (it is the tools' host). A
 * server still connecting (deferred) is waited for, like a deferred tool.
 */
export class ServerRequests implements MCPToolHost {
  readonly #options: ServerRequestsOptions;

  constructor(options: ServerRequestsOptions) {
    this.#options = options;
  }

  /** The result budget of a tool call. */
  get resultCharLimit(): number {
    return this.#options.limits.resultCharLimit;
  }

  /** The media budget of a tool call. */
  get resultMediaByteLimit(): number {
    return this.#options.limits.resultMediaByteLimit;
  }

  /** A server as a tool sees it when it is called: live, connecting, or why it cannot be used. */
  liveServer(server: string): LiveServer {
    const record = this.#options.table.get(server)?.record;
    if (!record) return { error: `server "${server}" disconnected: it was removed from this session` };
    // A connected server's definitions are always its live ones (the cached ones only stand in before).
    if (record.connection) return { connection: record.connection, toolNames: record.toolNames };
    // A call to a server that dropped fails fast, even during a reconnect attempt: a model should not stall on it.
    if (record.reconnecting) return { error: unavailable(record) };
    if (record.active) return { pending: true };
    return { error: unavailable(record) };
  }

  /** A call found that the server needs a new sign-in (its tokens could not be refreshed). */
  signInRequired(server: string, error: unknown): void {
    if (McpRtError.isInstance(error)) this.#options.table.get(server)?.signInLost(error);
  }

  /** `MCPManager.waitForConnection`: the connection of `name` once it is connected and listed. */
  async waitForConnection(name: string, options: MCPRequestOptions = {}): Promise<MCPServerConnection> {
    const { signal } = options;
    if (signal?.aborted) throw abortError(`Waiting for MCP server "${name}" to connect`, signal.reason);
    const supervisor = this.#options.table.get(name);
    if (!supervisor) throw this.#options.table.unknown(name);
    const { record } = supervisor;
    if (record.connection) return record.connection;
    const attempt = record.attempt;
    if (!attempt || attempt.outcome) throw notConnected(record);
    // Someone waits for it now: a start still queued goes first.
    if (attempt.beganAt === undefined) supervisor.hurry();
    return attempt.wait(signal);
  }

  /** `MCPManager.readResource`: `resources/read` of `uri` on `server`. */
  async readResource(options: MCPReadResourceOptions): Promise<MCPResourceContents> {
    const { server, uri } = options;
    const connection = await this.waitForConnection(server, options);
    return client().readResource(connection, { uri, ...(options.signal ? { signal: options.signal } : {}) });
  }

  /** `MCPManager.readResourceResult`: a resource as a tool result; a failure is `MCP error: …` content. */
  async readResourceResult(options: MCPReadResourceOptions): Promise<ToolResult> {
    const { limits } = this.#options;
    const context = { serverName: options.server, mcpToolName: "resources/read" };
    try {
      const read = await this.readResource(options);
      const content = read.contents.map((resource) => ({ type: "resource", resource }));
      return toToolResult({ content }, context, {
        resultCharLimit: limits.resultCharLimit,
        resultMediaByteLimit: limits.resultMediaByteLimit,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return toolErrorResult(errorMessage(error), context);
    }
  }

  /** `MCPManager.getPrompt`: `prompts/get` of `name` on `server` with its `arguments`. */
  async getPrompt(options: MCPGetPromptOptions): Promise<MCPPromptResult> {
    const { server, name, arguments: args = {} } = options;
    const connection = await this.waitForConnection(server, options);
    return client().getPrompt(connection, {
      name,
      args,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** `MCPManager.subscribeResource`: follows `uri`; remembered on the record, so a reconnect subscribes again. */
  async subscribeResource(server: string, uri: string): Promise<void> {
    const connection = await this.waitForConnection(server);
    await client().subscribeResource(connection, { uri });
    this.#options.table.get(server)?.subscribe(uri);
  }

  /** `MCPManager.unsubscribeResource`: stops following `uri`. */
  async unsubscribeResource(server: string, uri: string): Promise<void> {
    this.#options.table.get(server)?.unsubscribe(uri);
    const connection = await this.waitForConnection(server);
    await client().unsubscribeResource(connection, { uri });
  }
}
