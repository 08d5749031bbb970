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
