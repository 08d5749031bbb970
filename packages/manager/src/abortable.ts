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
