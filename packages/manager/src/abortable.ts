/**
 * Settles like `promise`, or rejects with `signal.reason` as soon as `signal`
 * aborts (the promise keeps running; its late result is dropped).
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Resolves after `ms` (never, for `undefined`), or as soon as `signal` aborts; never rejects. */
export function delay(ms: number | undefined, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = ms === undefined ? undefined : setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * The `AbortError` an aborted operation rejects with: its message says what
 * was aborted (`what`, e.g. "The tool call mcp_github_search"), its `cause`
 * is the signal's reason. A reason that is an `AbortError` already is kept.
 */
export function abortError(what: string, signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException(`${what} was aborted`, { name: "AbortError", cause: reason });
}
