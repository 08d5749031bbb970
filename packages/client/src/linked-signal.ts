/** A signal of one request, linked to the caller's signal until the request settles. */
export interface LinkedSignal {
  /** Aborts when the caller's signal aborts, as long as it is linked. */
  readonly signal: AbortSignal;
  /** Stops following the caller's signal; call once the request settled. */
  unlink(): void;
}

const noop = (): void => {};

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
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, unlink: noop };
  }
  const onAbort = (): void => controller.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return { signal: controller.signal, unlink: () => parent.removeEventListener("abort", onAbort) };
}
