import type { ContenderOutcome, RunListener } from "./alternate.js";
import type { BenchSizes } from "./sizes.js";
import { ratio, type Summary, summarize } from "./stats.js";
import type { Task, TaskResults } from "./tasks.js";

/** The unit a metric is reported in. */
export type MetricUnit = "ms" | "µs" | "MB" | "processes";

/** One contender's line in a metric table. */
export interface MetricRow {
  contender: string;
  summary?: Summary;
  /** Its median over the baseline's median. */
  ratio?: number;
  /** Runs that failed, and why. */
  failures: string[];
}

/** One measured quantity, every contender side by side. */
export interface MetricTable {
  metric: string;
  unit: MetricUnit;
  /** The contender the ratio column divides by. */
  baseline?: string;
  rows: MetricRow[];
}

/** A target of the issue, with a plain verdict. */
export interface TargetVerdict {
  target: string;
  /** What was measured against it. */
  measured: string;
  met: boolean;
}

/** Everything one scenario puts in the report. */
export interface ScenarioReport {
  number: number;
  title: string;
  /** What was run, with the sizes used. */
  setup: string[];
  tables: MetricTable[];
  /** Markdown shown after the tables (e.g. a per-server breakdown of them). */
  details?: string[];
  targets: TargetVerdict[];
  notes: string[];
}

/** What a scenario gets from the harness. */
export interface ScenarioContext {
  mode: "quick" | "full";
  sizes: BenchSizes;
  /** A new empty folder for this scenario (removed at the end of the run). */
  tempDir(name: string): Promise<string>;
  /** Runs a task in a fresh worker process (`timeoutMs` defaults to `sizes.timeoutMs`). */
  worker<K extends Task["kind"]>(
    task: Extract<Task, { kind: K }>,
    timeoutMs?: number,
  ): Promise<TaskResults[K]>;
  /** A Redis URL on 127.0.0.1 when a `redis-server` could be started. */
  redisUrl?: string;
  /** Why there is no Redis, when there is none. */
  redisMissing?: string;
  /** Progress output after every run. */
  onRun: RunListener;
  /** A progress line. */
  log(line: string): void;
}

/** One benchmark scenario of the issue. */
export interface Scenario {
  number: number;
  /** Used by `--only`. */
  id: string;
  title: string;
  run(context: ScenarioContext): Promise<ScenarioReport>;
}

/**
 * One metric of every contender: summary, ratio to `baseline` and failures.
 * `labels` gives the order and the names shown.
 */
export function metricTable<R>(options: {
  metric: string;
  unit: MetricUnit;
  outcomes: Map<string, ContenderOutcome<R>>;
  labels: Record<string, string>;
  pick: (result: R) => number;
  baseline?: string;
}): MetricTable {
  const { outcomes, labels, pick, baseline } = options;
  const summaries = new Map(
    [...outcomes].map(([id, outcome]) => [id, summarize(outcome.results.map(pick))] as const),
  );
  const base = baseline === undefined ? undefined : summaries.get(baseline);
  const rows = [...outcomes].map(([id, outcome]): MetricRow => {
    const summary = summaries.get(id);
    const row: MetricRow = { contender: labels[id] ?? id, failures: outcome.failures };
    if (summary) row.summary = summary;
    const r = ratio(summary, base);
    if (r !== undefined && baseline !== undefined) row.ratio = r;
    return row;
  });
  return {
    metric: options.metric,
    unit: options.unit,
    ...(baseline === undefined ? {} : { baseline: labels[baseline] ?? baseline }),
    rows,
  };
}

/** Formats a value in its unit for the report. */
export function formatValue(value: number, unit: MetricUnit): string {
  if (unit === "processes") return String(Math.round(value));
  const digits = Math.abs(value) >= 1000 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

/** `met` when the median is at most `limit`; a missing measurement is not met. */
export function medianAtMost(options: {
  target: string;
  summary: Summary | undefined;
  limit: number;
  unit: MetricUnit;
  why?: string;
}): TargetVerdict {
  const { summary, limit, unit } = options;
  if (!summary) {
    return {
      target: options.target,
      measured: `not measured${options.why ? `: ${options.why}` : ""}`,
      met: false,
    };
  }
  return {
    target: options.target,
    measured: `median ${formatValue(summary.median, unit)} (limit ${formatValue(limit, unit)})`,
    met: summary.median <= limit,
  };
}

/** `met` when the ratio of two medians is at most `limit`. */
export function ratioAtMost(options: {
  target: string;
  of: Summary | undefined;
  to: Summary | undefined;
  limit: number;
}): TargetVerdict {
  const r = ratio(options.of, options.to);
  if (r === undefined) return { target: options.target, measured: "not measured", met: false };
  return {
    target: options.target,
    measured: `ratio of medians ${r.toFixed(3)} (limit ${options.limit.toFixed(2)})`,
    met: r <= options.limit,
  };
}
