/** A signal of one request, linked to the caller's signal until the request settles. */
export interface LinkedSignal {
  /** Aborts when the caller's signal aborts, as long as it is linked. */
  readonly signal: AbortSignal;
  /** Stops following the caller's signal; call once the request settled. */
  unlink(): void;
}

const noop = (): void => {};

/**
 * Calls `abort` with `parent`'s reason when it aborts (at once when it already
 * has), until the returned function is called: how a request follows its
 * caller's signal only while it runs.
 */
export function followSignal(parent: AbortSignal | undefined, abort: (reason: unknown) => void): () => void {
  if (!parent) return noop;
  if (parent.aborted) {
    abort(parent.reason);
    return noop;
  }
  const onAbort = (): void => abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return () => parent.removeEventListener("abort", onAbort);
}

/**
 * Gives one SDK request its own signal, following `parent` only while the
 * request runs. The SDK adds an abort listener to the signal it is given and
 * never removes it; with the caller's signal (or `AbortSignal.any` of it) a
 * later abort would still reach every request that already finished, and the
 * SDK would send `notifications/cancelled` for each. Unlinked, a finished
 * request's signal never aborts.
 */
export function linkSignal(parent: AbortSignal): LinkedSignal {
  const controller = new AbortController();
  const unlink = followSignal(parent, (reason) => controller.abort(reason));
  return { signal: controller.signal, unlink };
}
