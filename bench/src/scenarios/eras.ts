import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type FixtureEra, readPidFileEntries } from "@mcp-rt/testing";
import type { ContenderOutcome } from "../alternate.js";
import { fixtureServers, toolsPerFixture } from "../fixture-servers.js";
import {
  type MetricTable,
  metricTable,
  type Scenario,
  type ScenarioReport,
  type TargetVerdict,
} from "../scenario.js";
import { summarize } from "../stats.js";
import type { StartupResult } from "../tasks.js";
import { LABELS, runStartups } from "./startup-plans.js";

/** The rows of one era's table, by the id their results are kept under. */
const ROWS: Record<string, string> = {
  ...LABELS,
  "mcp-rt-cold": "mcp-rt, cold (empty cache: the era probe on the serving process)",
  "raw-sdk-v2-auto":
    'raw SDK v2, cold, `versionNegotiation: { mode: "auto" }` (its probe in a sibling process)',
  "mcp-rt-warm": "mcp-rt, warm (the era verdict from the cache: no probe)",
  "mcp-rt-warm-cache-first":
    'mcp-rt, warm, `startupMode: "cache-first"` (the example agent\'s: no gate timer)',
};

/** Lines of the fixtures' pid file with `role`: processes started (`server`) or `server/discover` received (`probe`). */
function countLines(pidFile: string, role: "server" | "probe"): number {
  return readPidFileEntries(pidFile).filter((entry) => entry.role === role).length;
}

/**
 * What every fixture of the scenario is given, as a real config gives its server: an API key
 * and a plain setting. A 2026-07-28 server's lists are private (the SDK's default), so a warm
 * start finds them only under the auth context these values make part of.
 */
const REAL_ENV = { EXAMPLE_API_KEY: "sk-bench-0123456789abcdefABCDEF", LOG_LEVEL: "info" };

/** The warm start of a modern or dual-era server against the legacy one's, at most (median to median). */
const WARM_RATIO_TARGET = 1.1;

/** 12. Both MCP eras: what finding a server's era costs cold, and that a warm start sends no probe. */
export const eras: Scenario = {
  number: 12,
  id: "eras",
  title: "Both MCP eras",
  async run(context): Promise<ScenarioReport> {
    const size = context.sizes.eras;
    const dir = await context.tempDir("eras");
    const cwd = join(dir, "project");
    await mkdir(cwd);
    const expectTools = size.servers * toolsPerFixture(0);
    const tables: MetricTable[] = [];
    const targets: TargetVerdict[] = [];
    const notes: string[] = [];
    const warmMedians = new Map<FixtureEra, number | undefined>();
    const kinds: Array<[FixtureEra, string]> = [
      ["legacy", "legacy (answers the probe with -32601)"],
      ["dual", "dual-era (pins its era from the first exchange)"],
      ["modern", "modern-only (refuses initialize)"],
    ];
    for (const [era, what] of kinds) {
      // One pid file per contender, so the processes each one starts and the probes it sends are counted apart.
      const pidFile = (who: string) => join(dir, `${era}-${who}.pids`);
      const servers = (who: string) => fixtureServers(size.servers, { era, pidFile: pidFile(who) }, REAL_ENV);
      let run = 0;
      const cold = await runStartups(
        context,
        {
          kind: "startup",
          servers: servers("mcp-rt"),
          cwd,
          expectTools,
          cacheDir: () => join(dir, `${era}-cold-${++run}`),
        },
        [
          { id: "mcp-rt", as: "mcp-rt-cold", warmup: size.warmup, runs: size.runs },
          { id: "raw-sdk-v2-auto", warmup: size.warmup, runs: size.runs, servers: servers("raw-v2") },
        ],
      );
      const coldRuns = size.warmup + size.runs;
      const perConnect = (who: string) => countLines(pidFile(who), "server") / (coldRuns * size.servers);

      // Warm: a cache primed by a first start, then a second start that waits for every server
      // (so a probe it sent would be counted), then the timed warm starts.
      const warmServers = servers("warm");
      const warmCache = join(dir, `${era}-warm-cache`);
      context.log(`${era}: priming the tool cache with ${size.servers} servers`);
      await context.worker({ kind: "prime-cache", servers: warmServers, cwd, cacheDir: warmCache });
      const probesCold = countLines(pidFile("warm"), "probe");
      await context.worker({ kind: "prime-cache", servers: warmServers, cwd, cacheDir: warmCache });
      const probesWarm = countLines(pidFile("warm"), "probe") - probesCold;
      const warm = await runStartups(
        context,
        { kind: "startup", servers: warmServers, cwd, expectTools, cacheDir: warmCache },
        [
          { id: "mcp-rt", as: "mcp-rt-warm", warmup: size.warmup, runs: size.runs },
          { id: "mcp-rt-cache-first", as: "mcp-rt-warm-cache-first", warmup: size.warmup, runs: size.runs },
        ],
      );
      const outcomes = new Map<string, ContenderOutcome<StartupResult>>([...cold, ...warm]);
      tables.push(
        metricTable({
          metric: `${what}: time until every tool is in hand`,
          unit: "ms",
          outcomes,
          labels: ROWS,
          pick: (result) => result.ms,
          baseline: "raw-sdk-v2-auto",
        }),
      );
      targets.push({
        target: `${era}: a warm start sends no era probe`,
        measured: `${probesWarm} \`server/discover\` to ${size.servers} servers (the cold start before it: ${probesCold})`,
        met: probesWarm === 0,
      });
      const medianOf = (id: string) =>
        summarize(outcomes.get(id)?.results.map((result) => result.ms) ?? [])?.median;
      // Cache-first: the gate's 250 ms timer would bound every era's warm start alike.
      warmMedians.set(era, medianOf("mcp-rt-warm-cache-first"));
      notes.push(
        `${era}: processes started per connect, mcp-rt ${perConnect("mcp-rt").toFixed(2)}, raw SDK v2 (auto) ${perConnect("raw-v2").toFixed(2)}; medians cold ${medianOf("mcp-rt-cold")?.toFixed(0) ?? "–"} ms against ${medianOf("raw-sdk-v2-auto")?.toFixed(0) ?? "–"} ms, warm ${medianOf("mcp-rt-warm")?.toFixed(0) ?? "–"} ms.`,
      );
    }
    const legacyWarm = warmMedians.get("legacy");
    for (const era of ["dual", "modern"] as const) {
      const median = warmMedians.get(era);
      const ratio = median !== undefined && legacyWarm ? median / legacyWarm : undefined;
      targets.push({
        target: `${era}: a warm start (cache-first) with credentials in \`env\` ≤ ${WARM_RATIO_TARGET} × the legacy one's`,
        measured:
          ratio === undefined
            ? "not measured"
            : `${ratio.toFixed(2)} × (median ${median?.toFixed(0)} ms against ${legacyWarm?.toFixed(0)} ms)`,
        met: ratio !== undefined && ratio <= WARM_RATIO_TARGET,
      });
    }
    return {
      number: 12,
      title: `Both MCP eras: ${size.servers} stdio servers of each kind, cold and warm`,
      setup: [
        `For each kind of \`@mcp-rt/testing\` fixture (\`era\`: legacy, dual, modern), ${size.servers} servers with one tool each, each given the \`env\` a real config has (\`EXAMPLE_API_KEY\`, \`LOG_LEVEL\`); each run in a fresh process; the clock starts at the call that begins connecting and stops when every tool is in hand.`,
        `mcp-rt with the default \`protocol: "auto"\`: cold, it sends \`server/discover\` on the process that will keep serving (a legacy server answers -32601 and gets \`initialize\` on the same process); warm, the verdict kept in the tool cache is handed to the SDK and no probe is sent. Raw SDK v2 with \`versionNegotiation: { mode: "auto" }\`: its stdio probe runs in a sibling process it starts and reaps first.`,
        "The warm-start target counts `server/discover` requests at the fixtures over a second start that waits for every server to connect (a probe sent in the background would be counted).",
      ],
      tables,
      targets,
      notes,
    };
  },
};
