let lastTurn: Promise<void> = Promise.resolve();
/** Holds that keep launches from starting (see {@link holdLaunches}). */
const holds = new Set<Promise<void>>();

const nextIteration = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

async function afterHolds(): Promise<void> {
  while (holds.size > 0) await Promise.all(holds);
}

/**
 * Waits for this process launch's turn: launches take turns, one event-loop
 * iteration apart. `spawn()` blocks the event loop for a whole `fork` +
 * `exec` (25–40 ms on a busy machine); twenty of them back to back would
 * hold every timer, I/O callback and cache read for their sum. Taking turns
 * lets timers (a startup gate), finished reads and answers run between two
 * launches, so nothing waits for more than one launch. Call it right before
 * spawning, and spawn without awaiting anything else in between.
 */
export function launchTurn(): Promise<void> {
  // Holds are checked again after the iteration: a hold set by a timer in between applies at once.
  const turn = lastTurn.then(afterHolds).then(nextIteration).then(afterHolds);
  lastTurn = turn;
  return turn;
}

/**
 * Keeps new launches from starting until the returned function is called
 * (launches already spawning finish). The manager holds them just before its
 * startup gate, so that the gate's timer is not stuck behind a fork + exec.
 * Release it, always: launches wait as long as any hold is on.
 */
export function holdLaunches(): () => void {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => {
    release = resolve;
  });
  holds.add(hold);
  return () => {
    holds.delete(hold);
    release();
  };
}
