import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { ContenderOutcome } from "../alternate.js";
import { toolsPerFixture } from "../fixture-servers.js";
import { metricTable, ratioAtMost, type Scenario, type ScenarioReport } from "../scenario.js";
import { summarize } from "../stats.js";
import type { StartupResult } from "../tasks.js";
import { hasSetsid } from "./call-overhead.js";
import {
  diagnosticRowNote,
  HOST_ENV,
  LABELS,
  ownSessionNote,
  PROTOCOL_LEGACY,
  runStartups,
  startupProject,
  startupTables,
} from "./startup-plans.js";

const msOf = (outcome: ContenderOutcome<StartupResult> | undefined) =>
  summarize(outcome?.results.map((result) => result.ms) ?? []);

/** 2. Many fast servers, nothing cached: mcp-rt's pipeline must cost little over the SDK. */
export const coldStart: Scenario = {
  number: 2,
  id: "cold-start",
  title: "Cold start",
  async run(context): Promise<ScenarioReport> {
    const size = context.sizes.coldStart;
    const { dir, cwd, servers, expectTools } = await startupProject(context, {
      name: "cold-start",
      count: size.servers,
      fixture: { tools: size.toolsPerServer },
    });
    let run = 0;
    // Every run gets an empty cache folder: a first start on this machine.
    const cacheDir = (): string => join(dir, `cache-${++run}`);
    // In full runs, two diagnostic rows of the raw SDK: its servers in sessions of their own (as in
    // scenario 3), and its servers given the host's environment, as mcp-rt's are.
    const full = context.mode === "full";
    const outcomes = await runStartups(context, { kind: "startup", servers, cwd, expectTools, cacheDir }, [
      { id: "mcp-rt", warmup: size.warmup, runs: size.runs },
      { id: "mcp-rt", warmup: size.warmup, runs: size.runs, protocolLegacy: true },
      { id: "raw-sdk", warmup: size.warmup, runs: size.runs },
      { id: "raw-sdk-v2", warmup: size.warmup, runs: size.runs },
      ...(full && hasSetsid()
        ? [{ id: "raw-sdk" as const, warmup: size.warmup, runs: size.runs, ownSession: true }]
        : []),
      ...(full ? [{ id: "raw-sdk" as const, warmup: size.warmup, runs: size.runs, hostEnv: true }] : []),
      { id: "langchain", warmup: 0, runs: size.langchainRuns },
    ]);
    const tables = startupTables(outcomes, {
      time: "connect + list until every tool is in hand",
      stall: "longest event-loop stall while starting",
    });
    const cpu = metricTable({
      metric: "host CPU until every tool is in hand (user + system time of the client process)",
      unit: "ms",
      outcomes,
      labels: LABELS,
      pick: (result) => result.cpuMs,
      baseline: "raw-sdk",
    });
    return {
      number: 2,
      title: `Cold start: ${size.servers} fast stdio servers`,
      setup: [
        `${size.servers} \`echoServer\` fixtures with ${toolsPerFixture(size.toolsPerServer)} tools each (${expectTools} tools); each run in a fresh process; mcp-rt starts with an empty file-store cache each run (and writes it, as a first start does), then registers the tools with \`AgentSession.refreshMCPTools\`.`,
        `The clock starts at the call that begins connecting and stops when every tool is in hand.`,
        'mcp-rt runs twice: with the default `protocol: "auto"` (an era probe per server: `server/discover`, which these legacy fixtures answer with -32601, then `initialize` on the same process) and with `protocol: "legacy"` (`initialize` only).',
      ],
      tables: [...tables, cpu],
      targets: [
        ratioAtMost({
          target: "mcp-rt ≤ 1.10 × raw SDK",
          of: msOf(outcomes.get("mcp-rt")),
          to: msOf(outcomes.get("raw-sdk")),
          limit: 1.1,
        }),
        ratioAtMost({
          target:
            'mcp-rt, `protocol: "auto"` (the default: an era probe per server) ≤ 1.05 × `protocol: "legacy"`',
          of: msOf(outcomes.get("mcp-rt")),
          to: msOf(outcomes.get(PROTOCOL_LEGACY)),
          limit: 1.05,
        }),
      ],
      notes: [
        ...ownSessionNote(outcomes),
        ...hostCpuNote(outcomes, size.servers),
        ...diagnosticRowNote(
          outcomes,
          HOST_ENV,
          "with the host's environment is a diagnostic: its servers get the whole environment this run started in, as mcp-rt's do (less what looks secret), instead of the SDK's default six variables",
          "The head says whether this environment holds variables that slow every Node start.",
        ),
        `LangChain ran ${size.langchainRuns} time(s) without warm-up: it connects servers one after another.`,
      ],
    };
  },
};

/** The host's own CPU against the raw SDK's: on a small machine it is CPU the starting servers do not get. */
function hostCpuNote(outcomes: Map<string, ContenderOutcome<StartupResult>>, servers: number): string[] {
  const median = (id: string) =>
    summarize(outcomes.get(id)?.results.map((result) => result.cpuMs) ?? [])?.median;
  const [mcpRt, raw] = [median("mcp-rt"), median("raw-sdk")];
  if (mcpRt === undefined || raw === undefined) return [];
  return [
    `Host CPU until every tool was in hand (medians): mcp-rt ${mcpRt.toFixed(0)} ms, the raw SDK ${raw.toFixed(0)} ms; mcp-rt's includes naming, the registry and writing ${servers} cache entries (JSON, HMAC, an atomic file write each) while the other servers still start. With ${availableParallelism()} CPU core(s) here, host CPU is CPU the ${servers} starting servers do not get.`,
  ];
}
