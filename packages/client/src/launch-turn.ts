let lastTurn: Promise<void> = Promise.resolve();

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
  const turn = lastTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  lastTurn = turn;
  return turn;
}
