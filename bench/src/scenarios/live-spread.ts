import type { ContenderOutcome } from "../alternate.js";
import { type MetricTable, metricTable } from "../scenario.js";
import { type Summary, summarize } from "../stats.js";
import type { StartupResult } from "../tasks.js";

/** One start's servers, by when their tools were live: the first, the median and the last, in ms from the start. */
export interface LiveSpread {
  first: number;
  median: number;
  last: number;
}

/** The {@link LiveSpread} of a run; undefined when the run does not say when each server was live. */
export function liveSpread(result: StartupResult): LiveSpread | undefined {
  const times = Object.values(result.perServerMs ?? {});
  const summary = summarize(times);
  return summary && { first: summary.min, median: summary.median, last: summary.max };
}

/** Each contender's runs as {@link LiveSpread}s (runs that do not say are left out). */
export function liveSpreads(
  outcomes: Map<string, ContenderOutcome<StartupResult>>,
): Map<string, ContenderOutcome<LiveSpread>> {
  return new Map(
    [...outcomes].map(([id, outcome]) => [
      id,
      { results: outcome.results.flatMap((result) => liveSpread(result) ?? []), failures: outcome.failures },
    ]),
  );
}

/**
 * Three tables: when the first server's tools were live, the median
 * server's and the last's, each contender against `baseline`. `what` begins
 * each metric's name (e.g. "cold start").
 */
export function liveSpreadTables(options: {
  what: string;
  outcomes: Map<string, ContenderOutcome<StartupResult>>;
  labels: Record<string, string>;
  baseline: string;
}): MetricTable[] {
  const outcomes = liveSpreads(options.outcomes);
  const table = (which: keyof LiveSpread, metric: string): MetricTable =>
    metricTable({
      metric: `${options.what}: ${metric}`,
      unit: "ms",
      outcomes,
      labels: options.labels,
      pick: (spread) => spread[which],
      baseline: options.baseline,
    });
  return [
    table("first", "the first server's tools live"),
    table("median", "the median server's tools live"),
    table("last", "the last server's tools live"),
  ];
}

/** A contender's runs summarised by one of their {@link LiveSpread} values (a target's median). */
export function spreadOf(
  outcomes: Map<string, ContenderOutcome<StartupResult>>,
  id: string,
  which: keyof LiveSpread,
): Summary | undefined {
  return summarize((liveSpreads(outcomes).get(id)?.results ?? []).map((spread) => spread[which]));
}
