import type { Progress } from "@modelcontextprotocol/sdk/types.js";

/**
 * The tool calls in flight on one connection that asked for progress, by the
 * `progressToken` each sent. `callTool` asks for progress itself (a token of
 * its own in `_meta`) instead of through the SDK's `onprogress`: given
 * `onprogress`, the SDK builds every request again with two more
 * spread-then-property object literals, which Node 20 builds on a slow path,
 * and that was most of what a call cost over the raw SDK's `callTool` (about
 * 9 µs of host CPU each; bench/RESULTS.md, scenario 3). The connection routes
 * every progress notification here (the SDK's own handler would only find no
 * request of its own waiting for it).
 */
export class ProgressCalls {
  #next = 0;
  readonly #listeners = new Map<number, (progress: Progress) => void>();

  /** Registers a call's listener; returns the token the call sends. */
  add(listener: (progress: Progress) => void): number {
    const token = ++this.#next;
    this.#listeners.set(token, listener);
    return token;
  }

  /** Forgets a call once it settled; later notifications with its token are dropped. */
  delete(token: number): void {
    this.#listeners.delete(token);
  }

  /** Hands a `notifications/progress` to the call that sent its token; an unknown or late token is dropped. */
  deliver(params: { progressToken: string | number } & Progress): void {
    const { progressToken, ...progress } = params;
    this.#listeners.get(Number(progressToken))?.(progress);
  }
}
