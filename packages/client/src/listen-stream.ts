import { McpRtError } from "@mcp-rt/config";
import { errorMessage } from "@mcp-rt/config/util";
import type { Client, McpSubscription, ServerCapabilities } from "@modelcontextprotocol/client";

/** What a {@link ListenStream} needs of its connection. */
export interface ListenStreamInit {
  /** The server's name, for messages. */
  name: string;
  client: Client;
  capabilities: ServerCapabilities;
  /** How long the server may take to acknowledge a listen, in ms. */
  timeoutMs: number;
  /** Told when the server refuses to listen or the stream ends while the connection lives. */
  onProblem(error: McpRtError): void;
}

/**
 * On a 2026-07-28 connection the server sends list changes and resource
 * updates only on a `subscriptions/listen` stream the client opened; the SDK
 * hands what arrives on it to the notification handlers a legacy connection
 * uses, so the connection's `onToolsChanged`, `onListChanged` and
 * `onResourceUpdated` work in both eras. The filter asks for what the
 * server's capabilities offer, plus the resources subscribed to; a new
 * subscription opens a stream with the wider filter before the old one is
 * closed. A server that refuses to listen stays connected, with nothing
 * followed live.
 */
export class ListenStream {
  readonly #init: ListenStreamInit;
  readonly #uris = new Set<string>();
  #current: McpSubscription | undefined;
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(init: ListenStreamInit) {
    this.#init = init;
  }

  /** Opens the stream with what the capabilities offer; a refusal is reported, never thrown. */
  start(): Promise<void> {
    return this.#reopen().then(
      () => {},
      (error: unknown) => this.#init.onProblem(this.#refused(error)),
    );
  }

  /** Adds `uri` to the resources followed: rejects with `PROTOCOL_ERROR` when the server does not take it. */
  async subscribe(uri: string): Promise<void> {
    this.#uris.add(uri);
    try {
      const honored = await this.#reopen();
      if (!honored.resourceSubscriptions?.includes(uri)) {
        throw new McpRtError(
          "PROTOCOL_ERROR",
          `MCP server "${this.#init.name}" did not take the subscription to ${JSON.stringify(uri)} on its subscriptions/listen stream`,
          { server: this.#init.name },
        );
      }
    } catch (error) {
      this.#uris.delete(uri);
      throw McpRtError.isInstance(error) ? error : this.#refused(error);
    }
  }

  /** Stops following `uri`. */
  async unsubscribe(uri: string): Promise<void> {
    if (!this.#uris.delete(uri)) return;
    await this.#reopen();
  }

  /** Closes the stream (idempotent); the connection's close ends it too. */
  async close(): Promise<void> {
    this.#closed = true;
    const current = this.#current;
    this.#current = undefined;
    await current?.close().catch(() => {});
  }

  /** Opens a stream with the current filter, then closes the one it replaces; one at a time. */
  #reopen(): Promise<NonNullable<McpSubscription["honoredFilter"]>> {
    const run = this.#queue.then(async () => {
      const filter = this.#filter();
      const previous = this.#current;
      if (this.#closed) return {};
      if (!filter) {
        this.#current = undefined;
        await previous?.close().catch(() => {});
        return {};
      }
      const next = await this.#init.client.listen(filter, { timeout: this.#init.timeoutMs });
      if (this.#closed) {
        await next.close().catch(() => {});
        return {};
      }
      this.#current = next;
      void next.closed.then((how) => {
        if (how === "remote" && this.#current === next && !this.#closed) {
          this.#init.onProblem(
            new McpRtError(
              "PROTOCOL_ERROR",
              `MCP server "${this.#init.name}" ended its subscriptions/listen stream; list changes are not followed live until it reconnects`,
              { server: this.#init.name },
            ),
          );
        }
      });
      await previous?.close().catch(() => {});
      return next.honoredFilter;
    });
    this.#queue = run.then(
      () => {},
      () => {},
    );
    return run;
  }

  /** What to ask for: the list changes the server offers, and the resources followed; undefined when nothing. */
  #filter(): Parameters<Client["listen"]>[0] | undefined {
    const { tools, prompts, resources } = this.#init.capabilities;
    const filter = {
      ...(tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(resources?.listChanged ? { resourcesListChanged: true } : {}),
      ...(this.#uris.size > 0 ? { resourceSubscriptions: [...this.#uris] } : {}),
    };
    return Object.keys(filter).length > 0 ? filter : undefined;
  }

  #refused(error: unknown): McpRtError {
    return new McpRtError(
      "PROTOCOL_ERROR",
      `MCP server "${this.#init.name}" refused subscriptions/listen (${errorMessage(error)}); it stays connected, its list changes are not followed live`,
      { server: this.#init.name, cause: error },
    );
  }
}
