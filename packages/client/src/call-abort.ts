/**
 * What a tool call hands the SDK as its request's `signal`: a one-shot abort
 * switch with the part of `AbortSignal` the SDK's `Protocol.request` reads
 * (`aborted`, `reason`, `throwIfAborted()` and its one `"abort"` listener,
 * through which it sends `notifications/cancelled` and rejects with the
 * reason). Making an `AbortController` costs about 6 µs on Node 20, more than
 * the rest of what mcp-rt adds to a call; a call needs one for its limit
 * without progress even when its caller gives no signal. The client's tests
 * of aborted, timed-out and progressing calls check that the SDK gets what it
 * needs from it.
 */
export class CallAbort {
  aborted = false;
  reason: unknown = undefined;
  /** The SDK's listener: it adds one per request (and never removes it). */
  #listener: (() => void) | undefined = undefined;
  /** Any further listeners; none on the SDK's path, so no array is made for a call. */
  #more: Array<() => void> | undefined = undefined;

  /** Throws the reason once aborted. */
  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** Adds an `"abort"` listener. */
  addEventListener(_type: "abort", listener: () => void): void {
    if (this.aborted) return;
    if (this.#listener === undefined) this.#listener = listener;
    else if (this.#more) this.#more.push(listener);
    else this.#more = [listener];
  }

  /** Aborts once, with `reason`; later calls do nothing. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const first = this.#listener;
    const more = this.#more;
    this.#listener = undefined;
    this.#more = undefined;
    first?.();
    if (more) for (const listener of more) listener();
  }

  /** This switch as the SDK's request options take a signal. */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }
}
