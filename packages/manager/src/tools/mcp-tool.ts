import type { CallToolOptions, MCPProgress, MCPServerConnection } from "@mcp-rt/client";
import { isSignInRequired } from "@mcp-rt/client/light";
import type { MCPToolDefinition, SourceMeta, ToolAnnotations } from "@mcp-rt/config";
import { abortError, errorMessage } from "@mcp-rt/config/util";
import { client } from "../client-module.js";
import type { CustomTool, ToolResult } from "./custom-tool.js";
import { resultDetails, type ToolResultContext, toolErrorResult, toToolResult } from "./tool-result.js";

/** A server as a tool sees it when it is called: live, or why it is not. */
export type LiveServer =
  | { connection: MCPServerConnection; toolNames: ReadonlySet<string> }
  | { pending: true }
  | { error: string };

/**
 * What a tool needs from the manager that built it. The manager implements it;
 * a caller only needs it to build tools by hand.
 */
export interface MCPToolHost {
  /** Text characters a result may hold before it is cut. */
  readonly resultCharLimit: number;
  /** Bytes of images a result may hold; past them an image becomes a note. @default 5242880 */
  readonly resultMediaByteLimit?: number;
  /** The server's live connection and tool names; `pending` while it connects; else why there is none. */
  liveServer(server: string): LiveServer;
  /**
   * Resolves once the server is connected and listed (bounded by its `timeout`
   * and by `signal`); rejects with an `McpRtError` when it failed, is unknown,
   * or takes too long.
   */
  waitForConnection(server: string, options?: { signal?: AbortSignal }): Promise<unknown>;
  /** A call found that the server needs a new sign-in (its tokens could not be refreshed). */
  signInRequired(server: string, error: unknown): void;
}

/** Options of {@link MCPTool} and `DeferredMCPTool`. */
export interface MCPToolOptions {
  /** The manager (or anything) that knows the server's live state. */
  host: MCPToolHost;
  /** The server's config name. */
  serverName: string;
  /** The tool as the server listed it (or as the cache kept it). */
  definition: MCPToolDefinition;
  /** The exposed name, `mcp_<server>_<tool>` (see `createMCPToolName`). */
  name: string;
  /** Where the server's config came from. */
  source?: SourceMeta;
}

/**
 * A tool of a connected server: calls go through the server's live connection.
 * While the server is first connecting a call waits for it, bounded by the
 * server's `timeout` and the call's signal. When the server dropped — gone, or
 * being reconnected automatically — calls fail at once with
 * `MCP error: server "<s>" disconnected …` instead of hanging: a model can go
 * on with something else and try again once the server is back.
 */
export class MCPTool implements CustomTool {
  /** `mcp_<server>_<tool>` (see `createMCPToolName`), final. */
  readonly name: string;
  /** `<server>/<tool>`: the config name and the original tool name. */
  readonly label: string;
  /** The server's description of the tool (or its title). */
  readonly description: string;
  /** The tool's display name (`title`, else `annotations.title`), when the server gives one. */
  readonly title?: string;
  /**
   * The server's hints about the tool (`readOnlyHint`, `destructiveHint`,
   * `idempotentHint`, `openWorldHint`), as it listed them. They are hints
   * from the server, not guarantees: a UI may show them, and must not rely
   * on them to skip a confirmation for an untrusted server.
   */
  readonly annotations?: ToolAnnotations;
  /** The tool's `inputSchema`. */
  readonly parameters: object;
  /** The server's config name. */
  readonly serverName: string;
  /** The tool as the server listed it. */
  readonly definition: MCPToolDefinition;
  /** Where the server's config came from. */
  readonly source?: SourceMeta;
  readonly #host: MCPToolHost;
  /** Where results and errors say they came from: made once, read by every call. */
  readonly #context: ToolResultContext;

  constructor(options: MCPToolOptions) {
    this.#host = options.host;
    this.serverName = options.serverName;
    this.definition = options.definition;
    this.name = options.name;
    this.label = `${options.serverName}/${options.definition.name}`;
    this.description = options.definition.description ?? options.definition.title ?? "";
    this.parameters = options.definition.inputSchema;
    const title = options.definition.title ?? options.definition.annotations?.title;
    if (typeof title === "string") this.title = title;
    if (options.definition.annotations) this.annotations = options.definition.annotations;
    if (options.source) this.source = options.source;
    const { source } = options;
    this.#context = {
      serverName: this.serverName,
      mcpToolName: this.definition.name,
      ...(source ? { provider: source.provider, providerName: source.providerName } : {}),
    };
  }

  /** Calls the tool. Only an abort rejects; every other failure is `MCP error: …` content. */
  execute(
    _toolCallId: string,
    params: unknown,
    signal?: AbortSignal,
    onUpdate?: (partial: ToolResult) => void,
  ): Promise<ToolResult> {
    return this.#call(params, signal, onUpdate);
  }

  /** Waits for the server; an error becomes `MCP error: …` content, an abort rejects. */
  async #waitForServer(signal: AbortSignal | undefined): Promise<ToolResult | undefined> {
    try {
      await this.#host.waitForConnection(this.serverName, signal ? { signal } : {});
      return undefined;
    } catch (error) {
      if (signal?.aborted) throw abortError(`The tool call ${this.name}`, signal.reason);
      return toolErrorResult(errorMessage(error), this.#context);
    }
  }

  /**
   * Calls through the server's live connection; waits while the server is
   * first connecting; fails fast when it dropped (gone or reconnecting).
   */
  async #call(
    params: unknown,
    signal: AbortSignal | undefined,
    onUpdate: ((partial: ToolResult) => void) | undefined,
  ): Promise<ToolResult> {
    if (signal?.aborted) throw abortError(`The tool call ${this.name}`, signal.reason);
    let live = this.#host.liveServer(this.serverName);
    if ("pending" in live) {
      const failed = await this.#waitForServer(signal);
      if (failed) return failed;
      live = this.#host.liveServer(this.serverName);
    }
    if ("pending" in live)
      return toolErrorResult(`server "${this.serverName}" is still connecting`, this.#context);
    if ("error" in live) return toolErrorResult(live.error, this.#context);
    const tool = this.definition.name;
    if (!live.toolNames.has(tool)) {
      return toolErrorResult(
        `tool "${tool}" is no longer provided by server "${this.serverName}"`,
        this.#context,
      );
    }
    const mcp = client();
    try {
      // One literal of one shape: properties added one by one move the object through a map each.
      // `tool`: a server whose list came from the cache (warm start, fresh `ttlMs`) still gets its
      // `Mcp-Param-*` headers (SEP-2243) from the definition kept there.
      const options: CallToolOptions = {
        name: tool,
        args: params ?? {},
        signal,
        onProgress: onUpdate ? (progress) => onUpdate(this.#progressUpdate(progress)) : undefined,
        tool: this.definition,
      };
      const raw = await mcp.callTool(live.connection, options);
      const result = toToolResult(raw, this.#context, this.#host);
      const outputSchema = this.definition.outputSchema;
      if (outputSchema) {
        const mismatch = mcp.checkStructuredContent(outputSchema, raw);
        if (mismatch !== undefined) result.details.structuredContentError = mismatch;
      }
      return result;
    } catch (error) {
      if (signal?.aborted) throw abortError(`The tool call ${this.name}`, signal.reason);
      if (isSignInRequired(error)) this.#host.signInRequired(this.serverName, error);
      return toolErrorResult(errorMessage(error), this.#context);
    }
  }

  #progressUpdate(progress: MCPProgress): ToolResult {
    const amount =
      progress.total === undefined ? `${progress.progress}` : `${progress.progress}/${progress.total}`;
    const text = progress.message ? `${progress.message} (${amount})` : `progress ${amount}`;
    return {
      content: [{ type: "text", text }],
      details: resultDetails(this.#context, false, progress),
    };
  }
}
