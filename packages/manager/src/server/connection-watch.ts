import type { MCPConnectionCloseEvent, MCPServerConnection } from "@mcp-rt/client";
import type { Logger, McpRtError } from "@mcp-rt/config";
import { errorMessage } from "@mcp-rt/config/util";
import { type CoalescedTask, createCoalescedTask } from "../coalesced-task.js";
import type { ContentList } from "./server-content.js";

/** Options of {@link ConnectionWatch}. */
export interface ConnectionWatchOptions {
  /** The connection to follow. */
  connection: MCPServerConnection;
  /** The connection closed (on purpose or not; see `event.expected`). */
  onClose(event: MCPConnectionCloseEvent): void;
  /** An out-of-band problem the connection survived. */
  onError(error: McpRtError): void;
  /** Lists the server's tools again and applies them; `signal` aborts once the watch stops. */
  relist(signal: AbortSignal): Promise<void>;
  /** Where a failed re-list is reported (unless the watch stopped or the connection closed). */
  logger: Logger | undefined;
  /** The shortest time between the starts of two re-lists. @default 0 */
  minRelistIntervalMs?: number;
  /** A re-list had to wait for `minRelistIntervalMs` (the server announces changes faster), the `inARow`th in a row. */
  onThrottle?: (inARow: number) => void;
  /** Lists the server's resources (and templates) or prompts again after their `list_changed`, coalesced like tools. */
  relistContent(list: ContentList, signal: AbortSignal): Promise<void>;
  /** The server says a subscribed resource changed. */
  onResourceUpdated(uri: string): void;
}

/**
 * Follows one live connection for the manager: its close and error
 * events, and `notifications/tools/list_changed`, which it turns into
 * coalesced re-lists, at most one per `minRelistIntervalMs` (a server that
 * re-announces after every list cannot keep it busy). It starts before the first `tools/list`, so that a
 * change announced while that list was running is not lost: such a change is
 * acted on when the watch is activated, once the first list is in place.
 */
export class ConnectionWatch {
  readonly #controller = new AbortController();
  readonly #relist: CoalescedTask;
  readonly #relistContent: Record<ContentList, CoalescedTask>;
  readonly #unsubscribe: Array<() => void>;
  #active = false;
  #missed = false;
  readonly #missedContent = new Set<ContentList>();

  constructor(options: ConnectionWatchOptions) {
    const { signal } = this.#controller;
    this.#relist = createCoalescedTask({
      run: () => (signal.aborted ? Promise.resolve() : options.relist(signal)),
      onError: (error) => {
        // A connection that went away is reported by its close, not by the re-list it cut short.
        if (signal.aborted || options.connection.closed) return;
        const message = errorMessage(error);
        options.logger?.warn(
          `MCP server "${options.connection.name}" announced new tools, but listing them failed; keeping the previous ones: ${message}`,
        );
      },
      minIntervalMs: options.minRelistIntervalMs ?? 0,
      signal,
      ...(options.onThrottle ? { onThrottle: options.onThrottle } : {}),
    });
    const contentTask = (list: ContentList): CoalescedTask =>
      createCoalescedTask({
        run: () => (signal.aborted ? Promise.resolve() : options.relistContent(list, signal)),
        onError: (error) => {
          if (signal.aborted || options.connection.closed) return;
          options.logger?.warn(
            `MCP server "${options.connection.name}" announced new ${list}, but listing them failed; keeping the previous ones: ${errorMessage(error)}`,
          );
        },
        minIntervalMs: options.minRelistIntervalMs ?? 0,
        signal,
      });
    this.#relistContent = { resources: contentTask("resources"), prompts: contentTask("prompts") };
    const { connection } = options;
    this.#unsubscribe = [
      connection.onClose((event) => options.onClose(event)),
      connection.onError((error) => options.onError(error)),
      connection.onToolsChanged(() => this.#toolsChanged()),
      connection.onListChanged((list) => this.#contentChanged(list)),
      connection.onResourceUpdated((uri) => {
        if (!signal.aborted) options.onResourceUpdated(uri);
      }),
    ];
  }

  /** The first tool list is in place: re-list from now on (at once, if a change was announced meanwhile). */
  activate(): void {
    this.#active = true;
    if (this.#missed) {
      this.#missed = false;
      this.#relist.trigger();
    }
    for (const list of this.#missedContent) this.#relistContent[list].trigger();
    this.#missedContent.clear();
  }

  /** Stops following the connection; a re-list in flight is aborted and its result dropped. */
  stop(): void {
    if (this.#controller.signal.aborted) return;
    this.#controller.abort();
    for (const off of this.#unsubscribe) off();
  }

  /** Settles once no re-list is in flight or queued. */
  async idle(): Promise<void> {
    await Promise.all([
      this.#relist.idle(),
      this.#relistContent.resources.idle(),
      this.#relistContent.prompts.idle(),
    ]);
  }

  #contentChanged(list: ContentList): void {
    if (this.#controller.signal.aborted) return;
    if (this.#active) this.#relistContent[list].trigger();
    else this.#missedContent.add(list);
  }

  #toolsChanged(): void {
    if (this.#controller.signal.aborted) return;
    if (this.#active) this.#relist.trigger();
    else this.#missed = true;
  }
}
