/**
 * Waits until one of `promises` settles or `ms` pass, whichever comes first;
 * never rejects, and the promises that lose keep running. For a best-effort
 * wait on shutdown (a child's exit, a session's termination) where neither a
 * result nor a timeout changes what happens next.
 */
export async function firstSettled(promises: readonly Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([...promises.map((promise) => promise.then(ignore, ignore)), elapsed]);
  } finally {
    clearTimeout(timer);
  }
}

function ignore(): void {}
