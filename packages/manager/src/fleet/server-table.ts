import type { MCPPromptResult, MCPResourceContents, MCPServerConnection } from "@mcp-rt/client";
import { McpRtError } from "@mcp-rt/config";
import { abortError, errorMessage } from "@mcp-rt/config/util";
import { client } from "../client-module.js";
import type {
  MCPConnectionStatus,
  MCPGetPromptOptions,
  MCPReadResourceOptions,
  MCPRequestOptions,
  MCPServerState,
} from "../manager-types.js";
import type { ServerLimits } from "../server/server-limits.js";
import type { ServerView } from "../server/server-record.js";
import { notConnected, serverState, unavailable } from "../server/server-state.js";
import type { ServerSupervisor } from "../server/server-supervisor.js";
import type { ToolResult } from "../tools/custom-tool.js";
import type { LiveServer, MCPToolHost } from "../tools/mcp-tool.js";
import { toolErrorResult, toToolResult } from "../tools/tool-result.js";

/**
 * Every server a fleet knows, by config name (one {@link ServerSupervisor}
 * each), and what is asked of one server by name on a caller's behalf: wait
 * for its connection, read a resource, get a prompt, follow a resource. It is
 * also the host of the tools: what a tool asks of its server when it is
 * called. A server still connecting (deferred) is waited for, like a
 * deferred tool.
 */
export class ServerTable implements MCPToolHost {
  readonly #supervisors = new Map<string, ServerSupervisor>();
  readonly #limits: ServerLimits;

  /** @param limits What each server may send (the result budgets of calls and resource reads). */
  constructor(limits: ServerLimits) {
    this.#limits = limits;
  }

  /** The supervisor of `name`, if the fleet knows it. */
  get(name: string): ServerSupervisor | undefined {
    return this.#supervisors.get(name);
  }

  /** Adds the supervisor of a server the table does not hold yet; returns it. */
  add(supervisor: ServerSupervisor): ServerSupervisor {
    this.#supervisors.set(supervisor.name, supervisor);
    return supervisor;
  }

  /** Removes `name`; returns its supervisor (to be retired by the caller). */
  forget(name: string): ServerSupervisor | undefined {
    const supervisor = this.#supervisors.get(name);
    this.#supervisors.delete(name);
    return supervisor;
  }

  /** Every supervisor, in the order the servers became known. */
  supervisors(): ServerSupervisor[] {
    return [...this.#supervisors.values()];
  }

  /** Every server's state, read-only, in the same order. */
  views(): ServerView[] {
    return this.supervisors().map((supervisor) => supervisor.record);
  }

  /** Every config name. */
  names(): string[] {
    return [...this.#supervisors.keys()];
  }

  /** Every server as a UI shows it. */
  states(): MCPServerState[] {
    return this.views().map(serverState);
  }

  /** The design document's status of `name`; `disconnected` for a server the table does not know. */
  status(name: string): MCPConnectionStatus {
    return this.#supervisors.get(name)?.record.status ?? "disconnected";
  }

  /** The live connections. */
  *connections(): Iterable<MCPServerConnection> {
    for (const { record } of this.#supervisors.values()) if (record.connection) yield record.connection;
  }

  /** `UNKNOWN_SERVER` for a name the table does not know, listing the names it does. */
  unknown(name: string): McpRtError {
    const known = this.names();
    return new McpRtError(
      "UNKNOWN_SERVER",
      `No MCP server named "${name}" is configured${known.length > 0 ? ` (known: ${known.join(", ")})` : ""}`,
      { server: name },
    );
  }

  /** The result budget of a tool call. */
  get resultCharLimit(): number {
    return this.#limits.resultCharLimit;
  }

  /** The media budget of a tool call. */
  get resultMediaByteLimit(): number {
    return this.#limits.resultMediaByteLimit;
  }

  /** A server as a tool sees it when it is called: live, connecting, or why it cannot be used. */
  liveServer(server: string): LiveServer {
    const record = this.#supervisors.get(server)?.record;
    if (!record) return { error: `server "${server}" disconnected: it was removed from this session` };
    // A connected server's definitions are always its live ones (the cached ones only stand in before).
    if (record.connection) return { connection: record.connection, toolNames: record.toolNames };
    // A call to a server that dropped fails fast, even during a reconnect attempt: a model should not stall on it.
    if (record.inOutage) return { error: unavailable(record) };
    if (record.active) return { pending: true };
    return { error: unavailable(record) };
  }

  /** A call found that the server needs a new sign-in (its tokens could not be refreshed). */
  signInRequired(server: string, error: unknown): void {
    if (McpRtError.isInstance(error)) this.#supervisors.get(server)?.signInLost(error);
  }

  /** `MCPManager.waitForConnection`: the connection of `name` once it is connected and listed. */
  async waitForConnection(name: string, options: MCPRequestOptions = {}): Promise<MCPServerConnection> {
    const { signal } = options;
    if (signal?.aborted) throw abortError(`Waiting for MCP server "${name}" to connect`, signal.reason);
    const supervisor = this.#supervisors.get(name);
    if (!supervisor) throw this.unknown(name);
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
    const limits = this.#limits;
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
    this.#supervisors.get(server)?.subscribe(uri);
  }

  /** `MCPManager.unsubscribeResource`: stops following `uri`. */
  async unsubscribeResource(server: string, uri: string): Promise<void> {
    this.#supervisors.get(server)?.unsubscribe(uri);
    const connection = await this.waitForConnection(server);
    await client().unsubscribeResource(connection, { uri });
  }
}
