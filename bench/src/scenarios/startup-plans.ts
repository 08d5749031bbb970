import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { FixtureOptions } from "@mcp-rt/testing";
import { alternate, type ContenderOutcome, type ContenderPlan } from "../alternate.js";
import { fixtureServers, toolsPerFixture } from "../fixture-servers.js";
import { type MetricTable, metricTable, type ScenarioContext } from "../scenario.js";
import { summarize } from "../stats.js";
import {
  CONTENDER_LABELS,
  type ContenderId,
  type StartupResult,
  type StartupTask,
  type StdioServer,
} from "../tasks.js";

/** One contender of a startup scenario and how often it runs. */
export interface StartupContender {
  id: ContenderId;
  warmup: number;
  runs: number;
  timeoutMs?: number;
  /** Raw SDK only: every server started through `setsid` (diagnostic); shown as {@link OWN_SESSION}. */
  ownSession?: boolean;
  /** Raw SDK only: every server given the host's environment (diagnostic); shown as {@link HOST_ENV}. */
  hostEnv?: boolean;
  /** mcp-rt only: every server with `protocol: "legacy"` (no era probe); shown as {@link PROTOCOL_LEGACY}. */
  protocolLegacy?: boolean;
  /** Servers of this contender's own, in place of the task's (the same servers, counted apart). */
  servers?: Record<string, StdioServer>;
  /** The id its results are kept under, when it is not the contender's own. */
  as?: string;
  /** The tools its servers give, when it has {@link StartupContender.servers} of its own that give another number. */
  expectTools?: number;
  /** How many servers start at once ({@link StartupTask.maxConcurrentStarts}). */
  maxConcurrentStarts?: StartupTask["maxConcurrentStarts"];
}

/** The raw SDK with every server given the host's whole environment, as mcp-rt gives it (diagnostic). */
export const HOST_ENV = "raw-sdk-host-env";

/** The raw SDK with every server in a session of its own, as mcp-rt starts stdio servers (diagnostic). */
export const OWN_SESSION = "raw-sdk-own-session";

/** mcp-rt with every server's `protocol` set to `"legacy"`: `initialize` with no era probe first. */
export const PROTOCOL_LEGACY = "mcp-rt-protocol-legacy";

/** The names contenders are shown with. */
export const LABELS: Record<string, string> = {
  ...CONTENDER_LABELS,
  [OWN_SESSION]: "raw SDK, servers in sessions of their own (setsid; diagnostic)",
  [HOST_ENV]: "raw SDK, servers given the host's environment (diagnostic)",
  [PROTOCOL_LEGACY]: 'mcp-rt, `protocol: "legacy"` (no era probe)',
};

/**
 * A note on a diagnostic row of the raw SDK in a start (`row`, which `what`
 * describes): the row against the raw SDK, and mcp-rt against the row,
 * medians of one run; `after` follows.
 */
export function diagnosticRowNote(
  outcomes: Map<string, ContenderOutcome<StartupResult>>,
  row: string,
  what: string,
  after: string,
): string[] {
  const median = (id: string) =>
    summarize(outcomes.get(id)?.results.map((result) => result.ms) ?? [])?.median;
  const [mcpRt, raw, diagnostic] = [median("mcp-rt"), median("raw-sdk"), median(row)];
  if (mcpRt === undefined || raw === undefined || diagnostic === undefined) return [];
  return [
    `The raw SDK row ${what}, ${(diagnostic / raw).toFixed(3)} × the raw SDK here; mcp-rt was ${(mcpRt / diagnostic).toFixed(3)} × that row. ${after}`,
  ];
}

/** {@link diagnosticRowNote} of the raw SDK with its servers in sessions of their own. */
export function ownSessionNote(outcomes: Map<string, ContenderOutcome<StartupResult>>): string[] {
  return diagnosticRowNote(
    outcomes,
    OWN_SESSION,
    "with `setsid` is a diagnostic: the raw SDK with every server started in a session of its own, as mcp-rt starts stdio servers (its process-group design)",
    'On a machine with the autogroup scheduler a session of its own is a scheduling group of its own (README, "Busy machines").',
  );
}

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
      id: contender.as
        ? contender.as
        : contender.ownSession
          ? OWN_SESSION
          : contender.hostEnv
            ? HOST_ENV
            : contender.protocolLegacy
              ? PROTOCOL_LEGACY
              : contender.id,
      warmup: contender.warmup,
      runs: contender.runs,
      run: () =>
        context.worker(
          {
            ...rest,
            ...(contender.servers ? { servers: contender.servers } : {}),
            ...(contender.expectTools === undefined ? {} : { expectTools: contender.expectTools }),
            ...(contender.protocolLegacy ? { servers: withProtocol(rest.servers, "legacy") } : {}),
            contender: contender.id,
            cacheDir: typeof cacheDir === "function" ? cacheDir() : cacheDir,
            ...(contender.ownSession ? { serverInOwnSession: true } : {}),
            ...(contender.hostEnv ? { serverWithHostEnv: true } : {}),
            ...(contender.maxConcurrentStarts === undefined
              ? {}
              : { maxConcurrentStarts: contender.maxConcurrentStarts }),
          },
          contender.timeoutMs,
        ),
    }),
  );
  return alternate(plans, context.onRun);
}

/** `servers` with their `protocol` set to `protocol`. */
export function withProtocol(
  servers: Record<string, StdioServer>,
  protocol: NonNullable<StdioServer["protocol"]>,
): Record<string, StdioServer> {
  return Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, { ...server, protocol }]));
}

/** Where a startup scenario runs: a fresh project folder and its fixture servers. */
export interface StartupProject {
  /** The scenario's temp folder (cache folders go here). */
  dir: string;
  /** The project folder the servers start in. */
  cwd: string;
  servers: Record<string, StdioServer>;
  /** How many tools every server lists together. */
  expectTools: number;
}

/** A startup scenario's project: `count` fixtures with `fixture` options in a new folder named `name`. */
export async function startupProject(
  context: ScenarioContext,
  { name, count, fixture }: { name: string; count: number; fixture: FixtureOptions & { tools: number } },
): Promise<StartupProject> {
  const dir = await context.tempDir(name);
  const cwd = join(dir, "project");
  await mkdir(cwd);
  const servers = fixtureServers(count, fixture);
  return { dir, cwd, servers, expectTools: count * toolsPerFixture(fixture.tools) };
}

/**
 * The tables every startup scenario reports against the raw SDK: the time
 * until every tool is in hand and the longest event-loop stall, each metric
 * named as the scenario measures it.
 */
export function startupTables(
  outcomes: Map<string, ContenderOutcome<StartupResult>>,
  metrics: { time: string; stall: string },
): [time: MetricTable, stall: MetricTable] {
  const table = (metric: string, pick: (result: StartupResult) => number): MetricTable =>
    metricTable({ metric, unit: "ms", outcomes, labels: LABELS, pick, baseline: "raw-sdk" });
  return [table(metrics.time, (result) => result.ms), table(metrics.stall, (result) => result.loopStallMs)];
}
