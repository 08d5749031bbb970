/** How an operation on the store ended. */
export type Settled<T> =
  | { status: "ok"; value: T }
  | { status: "error"; error: unknown }
  | { status: "timeout" };

/**
 * Waits for `operation` at most `ms` milliseconds and never rejects. An
 * operation that outlives the limit keeps running; its late result is dropped.
 */
export function settleWithin<T>(operation: () => Promise<T>, ms: number): Promise<Settled<T>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ status: "timeout" }), ms);
    let running: Promise<T>;
    try {
      running = operation();
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (value) => {
        clearTimeout(timer);
        resolve({ status: "ok", value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        resolve({ status: "error", error });
      },
    );
  });
}
