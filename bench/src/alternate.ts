/** One contender's plan in a scenario. */
export interface ContenderPlan<R> {
  /** Key of the contender in the results. */
  id: string;
  /** Untimed runs first (their results are thrown away). */
  warmup: number;
  runs: number;
  run(): Promise<R>;
}

/** What one contender gave: its results, and why the runs that failed did. */
export interface ContenderOutcome<R> {
  results: R[];
  failures: string[];
}

/** Called after every run, for progress output. */
export type RunListener = (event: {
  id: string;
  phase: "warm-up" | "run";
  index: number;
  of: number;
  result?: unknown;
  error?: Error;
}) => void;

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * Runs the contenders taking turns (A, B, A, B …): first the warm-up rounds,
 * then the measured rounds; a contender with fewer runs drops out of the later
 * rounds. Turns keep a noisy machine's slow moments from landing on one side.
 * A failed run is recorded, not retried, and the others go on.
 */
export async function alternate<R>(
  plans: ReadonlyArray<ContenderPlan<R>>,
  onRun: RunListener = () => {},
): Promise<Map<string, ContenderOutcome<R>>> {
  const outcomes = new Map<string, ContenderOutcome<R>>(
    plans.map((plan) => [plan.id, { results: [], failures: [] }]),
  );
  const rounds = async (phase: "warm-up" | "run", count: (plan: ContenderPlan<R>) => number) => {
    const most = Math.max(0, ...plans.map(count));
    for (let index = 0; index < most; index++) {
      for (const plan of plans) {
        if (index >= count(plan)) continue;
        const outcome = outcomes.get(plan.id)!;
        try {
          const result = await plan.run();
          if (phase === "run") outcome.results.push(result);
          onRun({ id: plan.id, phase, index, of: count(plan), result });
        } catch (error) {
          const failure = asError(error);
          outcome.failures.push(`${phase} ${index + 1}: ${failure.message.split("\n")[0]}`);
          onRun({ id: plan.id, phase, index, of: count(plan), error: failure });
        }
      }
    }
  };
  await rounds("warm-up", (plan) => plan.warmup);
  await rounds("run", (plan) => plan.runs);
  return outcomes;
}
