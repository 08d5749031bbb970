/** A task that runs on demand, never twice at once. */
export interface CoalescedTask {
  /**
   * Asks for a run: starts one now, or, while one is in flight, queues one
   * more — however often it is asked for in the meantime.
   */
  trigger(): void;
  /** Settles once nothing is in flight or queued. */
  idle(): Promise<void>;
}

/**
 * Coalesces requests for `run` (e.g. a burst of `list_changed`
 * notifications gives one re-list in flight and at most one queued). A run
 * that throws goes to `onError`; the next run still happens.
 *
 * @example
 * ```ts
 * const relist = createCoalescedTask(() => refresh(), (error) => logger.warn(String(error)));
 * connection.onToolsChanged(() => relist.trigger());
 * ```
 */
export function createCoalescedTask(
  run: () => Promise<void>,
  onError: (error: unknown) => void,
): CoalescedTask {
  let running: Promise<void> | undefined;
  let queued = false;
  const loop = async (): Promise<void> => {
    // Yields first, so that `running` is set before `run` could ask for another run.
    await undefined;
    do {
      queued = false;
      try {
        await run();
      } catch (error) {
        onError(error);
      }
    } while (queued);
    running = undefined;
  };
  return {
    trigger() {
      if (running) {
        queued = true;
        return;
      }
      running = loop();
    },
    idle() {
      return running ?? Promise.resolve();
    },
  };
}
