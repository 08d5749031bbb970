import type { MCPPromptResult, MCPResourceContents, MCPServerConnection } from "@mcp-rt/client";
import { abortError, errorMessage } from "@mcp-rt/config/util";
import { client } from "../client-module.js";
import type { ServerLimits } from "../server/server-limits.js";
import type { ToolResult } from "../tools/custom-tool.js";
import { toolErrorResult, toToolResult } from "../tools/tool-result.js";
import type { ServerTable } from "./server-table.js";

/** What {@link ServerRequests} works on: the manager's parts it shares. */
export interface ServerRequestsParts {
  table: ServerTable;
  /** What each server may send, from the options (the result budget of `readResourceResult`). */
  limits: ServerLimits;
}

/** Options of a request: `signal` aborts it (and the wait for a deferred server). */
interface RequestOptions {
  signal?: AbortSignal;
}

/**
 * What the manager asks of one server on the caller's behalf besides tool
 * calls: wait for its connection, read a resource, get a prompt, follow a
 * resource. A server still connecting (deferred) is waited for, like a
 * deferred tool.
 */
export class ServerRequests {
  readonly #parts: ServerRequestsParts;

  constructor(parts: ServerRequestsParts) {
    this.#parts = parts;
  }

  /** `MCPManager.waitForConnection`: the connection of `name` once it is connected and listed. */
  async waitForConnection(name: string, options: RequestOptions = {}): Promise<MCPServerConnection> {
    const { signal } = options;
    if (signal?.aborted) throw abortError(`Waiting for MCP server "${name}" to connect`, signal.reason);
    const record = this.#parts.table.get(name);
    if (!record) throw this.#parts.table.unknown(name);
    if (record.connection) return record.connection;
    const attempt = record.attempt;
    if (!attempt || attempt.outcome) throw record.notConnected();
    return attempt.wait(signal);
  }

  /** `MCPManager.readResource`: `resources/read` of `uri` on `server`. */
  async readResource(
    server: string,
    uri: string,
    options: RequestOptions = {},
  ): Promise<MCPResourceContents> {
    const connection = await this.waitForConnection(server, options);
    return client().readResource(connection, { uri, ...(options.signal ? { signal: options.signal } : {}) });
  }

  /** `MCPManager.readResourceResult`: a resource as a tool result; a failure is `MCP error: …` content. */
  async readResourceResult(server: string, uri: string, options: RequestOptions = {}): Promise<ToolResult> {
    const { limits } = this.#parts;
    const context = { serverName: server, mcpToolName: "resources/read" };
    try {
      const read = await this.readResource(server, uri, options);
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

  /** `MCPManager.getPrompt`: `prompts/get` of `name` on `server` with `args`. */
  async getPrompt(
    server: string,
    name: string,
    args: Record<string, string>,
    options: RequestOptions = {},
  ): Promise<MCPPromptResult> {
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
    this.#parts.table.get(server)?.subscribe(uri);
  }

  /** `MCPManager.unsubscribeResource`: stops following `uri`. */
  async unsubscribeResource(server: string, uri: string): Promise<void> {
    const record = this.#parts.table.get(server);
    record?.unsubscribe(uri);
    const connection = await this.waitForConnection(server);
    await client().unsubscribeResource(connection, { uri });
  }
}
