import { alternate, type ContenderOutcome, type ContenderPlan } from "../alternate.js";
import type { ScenarioContext } from "../scenario.js";
import { CONTENDER_LABELS, type ContenderId, type StartupResult, type StartupTask } from "../tasks.js";

/** One contender of a startup scenario and how often it runs. */
export interface StartupContender {
  id: ContenderId;
  warmup: number;
  runs: number;
  timeoutMs?: number;
}

/** The names contenders are shown with. */
export const LABELS: Record<string, string> = CONTENDER_LABELS;

/**
 * Runs a startup task for every contender, each run in a fresh worker process,
 * the contenders taking turns. A `cacheDir` function gives each run its own folder.
 */
export function runStartups(
  context: ScenarioContext,
  task: Omit<StartupTask, "contender" | "cacheDir"> & { cacheDir: string | (() => string) },
  contenders: StartupContender[],
): Promise<Map<string, ContenderOutcome<StartupResult>>> {
  const { cacheDir, ...rest } = task;
  const plans = contenders.map(
    (contender): ContenderPlan<StartupResult> => ({
      id: contender.id,
      warmup: contender.warmup,
      runs: contender.runs,
      run: () =>
        context.worker(
          {
            ...rest,
            contender: contender.id,
            cacheDir: typeof cacheDir === "function" ? cacheDir() : cacheDir,
          },
          contender.timeoutMs,
        ),
    }),
  );
  return alternate(plans, context.onRun);
}
