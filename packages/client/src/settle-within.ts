/** Waits until one of `promises` settles or `ms` pass, whichever is first; never rejects. */
export async function settleWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([...promises.map((promise) => promise.then(noop, noop)), elapsed]);
  } finally {
    clearTimeout(timer);
  }
}

/** Does nothing: swallows a settled promise's value or reason. */
export function noop(): void {}
