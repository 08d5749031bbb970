const queues = new Map<string, Promise<void>>();

/**
 * Runs `task` once every earlier task for the same `issuer` in this process
 * has settled: one sign-in at a time per authorization server, so a second
 * server on the same issuer waits for the first sign-in and then finds its
 * registration (and, for the same resource, its tokens) instead of opening a
 * second browser tab. Aborting `signal` stops the wait (rejecting with its
 * reason) without holding up the tasks queued behind.
 */
export async function withIssuerLock<T>(
  issuer: string,
  task: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const previous = queues.get(issuer) ?? Promise.resolve();
  let release: () => void = () => {};
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => mine);
  queues.set(issuer, tail);
  tail.then(() => {
    if (queues.get(issuer) === tail) queues.delete(issuer);
  });
  try {
    await untilAborted(previous, signal);
    return await task();
  } finally {
    release();
  }
}

function untilAborted(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return wait;
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([wait, aborted]).finally(() => {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  });
}
