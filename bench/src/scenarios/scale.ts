import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { fixtureServers, toolsPerFixture } from "../fixture-servers.js";
import {
  type MetricUnit,
  medianAtMost,
  metricTable,
  ratioAtMost,
  type Scenario,
  type ScenarioReport,
  type TargetVerdict,
} from "../scenario.js";
import { summarize } from "../stats.js";
import type { StartupResult } from "../tasks.js";
import { LABELS, runStartups } from "./startup-plans.js";

/** 4. A hundred servers: time, memory of the host, shutdown time and what is left running. */
export const scale: Scenario = {
  number: 4,
  id: "scale",
  title: "Scale",
  async run(context): Promise<ScenarioReport> {
    const size = context.sizes.scale;
    const dir = await context.tempDir("scale");
    const cwd = join(dir, "project");
    await mkdir(cwd);
    // 100 node servers booting at once on a small machine can take longer than mcp-rt's default
    // 30 s connect timeout; each gets the raw SDK's own limit (its 60 s request timeout) instead.
    const servers = Object.fromEntries(
      Object.entries(fixtureServers(size.servers)).map(([name, server]) => [
        name,
        { ...server, timeout: DEFAULT_REQUEST_TIMEOUT_MSEC },
      ]),
    );
    const expectTools = size.servers * toolsPerFixture();
    let run = 0;
    const outcomes = await runStartups(
      context,
      { kind: "startup", servers, cwd, expectTools, cacheDir: () => join(dir, `cache-${++run}`) },
      [
        { id: "mcp-rt", warmup: size.warmup, runs: size.runs },
        { id: "raw-sdk", warmup: size.warmup, runs: size.runs },
        { id: "raw-sdk-v2", warmup: size.warmup, runs: size.runs },
      ],
    );
    const table = (metric: string, unit: MetricUnit, pick: (result: StartupResult) => number) =>
      metricTable({ metric, unit, outcomes, labels: LABELS, pick, baseline: "raw-sdk" });
    const connect = table("connect + list until every tool is in hand", "ms", (result) => result.ms);
    const rss = table("peak RSS of the host process", "MB", (result) => result.peakRssMB);
    const close = table("disconnectAll / closing every client", "ms", (result) => result.closeMs);
    const left = table("processes left right after closing", "processes", (result) => result.processesLeft);
    const young = table(
      "diagnostic: the V8 young generation at the end of the run",
      "MB",
      (result) => result.heap.youngMB,
    );
    const rest = table(
      "diagnostic: the rest of the V8 heap in use at the end of the run",
      "MB",
      (result) => result.heap.restUsedMB,
    );

    const mcpRt = outcomes.get("mcp-rt")!.results;
    const raw = outcomes.get("raw-sdk")!.results;
    const leftMax = summarize(mcpRt.map((result) => result.processesLeft))?.max;
    const leftTarget: TargetVerdict =
      leftMax === undefined
        ? { target: "mcp-rt leaves 0 processes after disconnectAll", measured: "not measured", met: false }
        : {
            target: "mcp-rt leaves 0 processes after disconnectAll",
            measured: `at most ${leftMax} in ${mcpRt.length} run(s)`,
            met: leftMax === 0,
          };
    return {
      number: 4,
      title: `Scale: ${size.servers} small stdio servers`,
      setup: [
        `${size.servers} \`echoServer\` fixtures; each run in a fresh process (the host), mcp-rt with an empty file-store cache; connect + list, then \`disconnectAll()\` (raw SDK: \`client.close()\` on every client, in parallel), then the host's live descendant processes are counted at once. Every server's \`timeout\` is 60 s, the raw SDK's own request timeout: 100 servers booting at once here take longer than mcp-rt's default 30 s.`,
        "Peak RSS is the host process's `maxRSS`; the servers' own memory is not in it. raw SDK v2 (`@modelcontextprotocol/client`, the SDK mcp-rt is built on) is a row beside the v1 floor, never the baseline of a target.",
      ],
      tables: [connect, rss, close, left, young, rest],
      targets: [
        medianAtMost({
          target: "mcp-rt `disconnectAll` ≤ 1 s",
          summary: summarize(mcpRt.map((result) => result.closeMs)),
          limit: 1000,
          unit: "ms",
        }),
        leftTarget,
        ratioAtMost({
          target: "mcp-rt connect + list ≤ 1.10 × raw SDK",
          of: summarize(mcpRt.map((result) => result.ms)),
          to: summarize(raw.map((result) => result.ms)),
          limit: 1.1,
        }),
        ratioAtMost({
          target: "mcp-rt peak RSS ≤ 1.15 × raw SDK",
          of: summarize(mcpRt.map((result) => result.peakRssMB)),
          to: summarize(raw.map((result) => result.peakRssMB)),
          limit: 1.15,
        }),
      ],
      notes: [
        ...rssNote(mcpRt, raw),
        ...closeNote(mcpRt, raw),
        "LangChain is not run here: it connects servers one after another, and the issue's targets are mcp-rt's own.",
      ],
    };
  },
};

const medianOf = (results: StartupResult[], pick: (result: StartupResult) => number): number | undefined =>
  summarize(results.map(pick))?.median;

/** Where the peak RSS differs: the young generation V8 grew, or what the heap holds. */
function rssNote(mcpRt: StartupResult[], raw: StartupResult[]): string[] {
  const diff = (pick: (result: StartupResult) => number): number | undefined => {
    const [of, to] = [medianOf(mcpRt, pick), medianOf(raw, pick)];
    return of === undefined || to === undefined ? undefined : of - to;
  };
  const [peak, young, rest] = [
    diff((result) => result.peakRssMB),
    diff((result) => result.heap.youngMB),
    diff((result) => result.heap.restUsedMB),
  ];
  if (peak === undefined || young === undefined || rest === undefined) return [];
  const mb = (value: number) => `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(1)} MB`;
  return [
    `Peak RSS, mcp-rt against the raw SDK (medians): ${mb(peak)}; at the end of the run its V8 young generation was ${mb(young)} and the rest of its heap in use ${mb(rest)} (the two diagnostic tables). V8 grows the young generation while a start allocates fast and shrinks it again once allocation slows, so its size at the end differs from run to run in both hosts; the rest is what the host holds (mcp-rt: a registry, names, the cache entries it wrote) and garbage not yet collected.`,
  ];
}

/** The 1 s limit is absolute: how long the raw SDK took to close the same servers. */
function closeNote(mcpRt: StartupResult[], raw: StartupResult[]): string[] {
  const [of, to] = [medianOf(mcpRt, (result) => result.closeMs), medianOf(raw, (result) => result.closeMs)];
  if (of === undefined || to === undefined) return [];
  return [
    `The \`disconnectAll\` limit is absolute: the raw SDK's close of the same servers took ${to.toFixed(0)} ms (median), mcp-rt's ${(of / to).toFixed(3)} × that. Both wait for the servers' processes to exit, which is where the time goes with this many Node servers on this machine.`,
  ];
}
