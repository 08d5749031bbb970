/**
 * Background work that nobody awaits on the spot (cache writes, closing what a
 * dropped server left), kept so that shutting down can wait for all of it.
 * A task's failure is swallowed here: whoever started it reports it.
 */
export class TaskGroup {
  readonly #running = new Set<Promise<unknown>>();

  /** Starts tracking `work` until it settles. */
  add(work: Promise<unknown>): void {
    const tracked: Promise<unknown> = work.catch(() => {}).finally(() => this.#running.delete(tracked));
    this.#running.add(tracked);
  }

  /** Settles once every task added so far, and every task they add meanwhile, has settled. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }
}
