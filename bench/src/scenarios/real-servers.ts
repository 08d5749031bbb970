import { join } from "node:path";
import { STARTUP_TIMEOUT_MS } from "@mcp-rt/manager";
import { alternate, type ContenderOutcome, type ContenderPlan } from "../alternate.js";
import { realServerCalls, realServerProject } from "../real-server-calls.js";
import { expectedRealTools } from "../real-servers.js";
import { medianAtMost, metricTable, ratioAtMost, type Scenario, type ScenarioReport } from "../scenario.js";
import { summarize } from "../stats.js";
import type { ContenderId, StartupResult, ToolCallsResult } from "../tasks.js";
import { hasSetsid } from "./call-overhead.js";
import { liveSpreadTables } from "./live-spread.js";
import { callsPerServerTable, startPerServerTable } from "./real-servers-tables.js";
import { diagnosticRowNote, HOST_ENV, LABELS, OWN_SESSION, ownSessionNote } from "./startup-plans.js";

const WARM_GATE = "mcp-rt-warm";
const WARM_CACHE_FIRST = "mcp-rt-cache-first";
const CALL_LABELS: Record<string, string> = LABELS;

const START_LABELS: Record<string, string> = {
  ...LABELS,
  [WARM_GATE]: 'mcp-rt, warm cache (`startupMode: "gate"`)',
  [WARM_CACHE_FIRST]: 'mcp-rt, warm cache, `startupMode: "cache-first"`',
};

/** The outcomes of `ids`, in that order (one table shows some contenders of a run). */
function pickOutcomes<R>(outcomes: Map<string, ContenderOutcome<R>>, ids: string[]) {
  return new Map(ids.flatMap((id) => (outcomes.has(id) ? [[id, outcomes.get(id)!] as const] : [])));
}

const msOf = <R extends { ms: number }>(outcome: ContenderOutcome<R> | undefined) =>
  summarize(outcome?.results.map((result) => result.ms) ?? []);
const cpuPerCall = (outcome: ContenderOutcome<ToolCallsResult> | undefined) =>
  summarize(outcome?.results.map((result) => (result.cpuMs * 1000) / result.calls) ?? []);

/** 10. Real MCP servers from npm: cold and warm start, and call latency, against the SDK and LangChain. */
export const realServersScenario: Scenario = {
  number: 10,
  id: "real-servers",
  title: "Real servers",
  async run(context): Promise<ScenarioReport> {
    const size = context.sizes.realServers;
    const dir = await context.tempDir("real-servers");
    const { cwd, servers } = await realServerProject(dir, size.servers);
    const expectTools = (contender: ContenderId): number =>
      expectedRealTools(size.servers, contender.startsWith("mcp-rt") ? "mcp-rt" : "sdk");

    const warmCache = join(dir, "cache-warm");
    context.log(`priming the tool cache with ${size.servers.length} real servers`);
    const primed = await context.worker({ kind: "prime-cache", servers, cwd, cacheDir: warmCache });
    if (primed.cached !== size.servers.length) {
      throw new Error(`priming cached ${primed.cached} of ${size.servers.length} servers`);
    }
    let coldRun = 0;
    const start = (
      id: string,
      contender: ContenderId,
      cacheDir: () => string,
      { counts = { warmup: size.warmup, runs: size.runs }, ownSession = false, hostEnv = false } = {},
    ): ContenderPlan<StartupResult> => ({
      id,
      ...counts,
      run: () =>
        context.worker({
          kind: "startup",
          contender,
          servers,
          cwd,
          cacheDir: cacheDir(),
          expectTools: expectTools(contender),
          ...(ownSession ? { serverInOwnSession: true } : {}),
          ...(hostEnv ? { serverWithHostEnv: true } : {}),
        }),
    });
    // In full runs only, as in scenarios 2 and 3: the raw SDK with its servers in sessions of their own,
    // and with its servers given the host's environment, as mcp-rt's are.
    const full = context.mode === "full";
    const diagnostic = full && hasSetsid();
    // One run of turns for all: the raw SDK and LangChain have no cache, their start is cold and warm alike.
    const starts = await alternate(
      [
        start("mcp-rt", "mcp-rt", () => join(dir, `cache-cold-${++coldRun}`)),
        start(WARM_GATE, "mcp-rt", () => warmCache),
        start(WARM_CACHE_FIRST, "mcp-rt-cache-first", () => warmCache),
        start("raw-sdk", "raw-sdk", () => warmCache),
        start("raw-sdk-v2", "raw-sdk-v2", () => warmCache),
        ...(diagnostic ? [start(OWN_SESSION, "raw-sdk", () => warmCache, { ownSession: true })] : []),
        ...(full ? [start(HOST_ENV, "raw-sdk", () => warmCache, { hostEnv: true })] : []),
        start("langchain", "langchain", () => warmCache, { counts: { warmup: 0, runs: size.langchainRuns } }),
      ],
      context.onRun,
    );

    const calls = realServerCalls(cwd).filter((spec) => spec.server in servers);
    const callServers = Object.fromEntries(
      Object.entries(servers).filter(([name]) => calls.some((spec) => spec.server === name)),
    );
    const call = (id: ContenderId, ownSession = false): ContenderPlan<ToolCallsResult> => ({
      id: ownSession ? OWN_SESSION : id,
      warmup: size.warmup,
      runs: size.callRuns,
      run: () =>
        context.worker({
          kind: "tool-calls",
          contender: id,
          servers: callServers,
          cwd,
          calls,
          warmupRounds: size.warmupRounds,
          rounds: size.rounds,
          ...(ownSession ? { serverInOwnSession: true } : {}),
        }),
    });
    const callOutcomes =
      calls.length > 0
        ? await alternate(
            [
              call("mcp-rt"),
              call("raw-sdk"),
              call("raw-sdk-v2"),
              ...(diagnostic ? [call("raw-sdk", true)] : []),
              call("langchain"),
            ],
            context.onRun,
          )
        : new Map<string, ContenderOutcome<ToolCallsResult>>();
    const timedCalls = size.rounds * calls.length;

    const cold = metricTable({
      metric: "cold start (empty cache): connect + list until every tool is in hand",
      unit: "ms",
      outcomes: pickOutcomes(starts, ["mcp-rt", "raw-sdk", "raw-sdk-v2", OWN_SESSION, HOST_ENV, "langchain"]),
      labels: START_LABELS,
      pick: (result) => result.ms,
      baseline: "raw-sdk",
    });
    const warm = metricTable({
      metric: "warm start (mcp-rt's cache primed; the others have none): until every tool is in hand",
      unit: "ms",
      outcomes: pickOutcomes(starts, [WARM_GATE, WARM_CACHE_FIRST, "raw-sdk", "langchain"]),
      labels: START_LABELS,
      pick: (result) => result.ms,
      baseline: "raw-sdk",
    });
    const callTables =
      calls.length === 0
        ? []
        : [
            metricTable({
              metric: "time per call",
              unit: "µs",
              outcomes: callOutcomes,
              labels: CALL_LABELS,
              pick: (result) => (result.ms * 1000) / result.calls,
              baseline: "raw-sdk",
            }),
            metricTable({
              metric: "host CPU per call (user + system time of the client process)",
              unit: "µs",
              outcomes: callOutcomes,
              labels: CALL_LABELS,
              pick: (result) => (result.cpuMs * 1000) / result.calls,
              baseline: "raw-sdk",
            }),
          ];
    const warmGate = starts.get(WARM_GATE);
    const deferred = summarize(warmGate?.results.map((result) => result.deferred) ?? []);
    const cacheFirstDeferred = summarize(
      starts.get(WARM_CACHE_FIRST)?.results.map((result) => result.deferred) ?? [],
    );
    const gateStall = summarize(warmGate?.results.map((result) => result.loopStallMs) ?? []);
    const names = size.servers.join(", ");
    return {
      number: 10,
      title: `Real servers: ${size.servers.length} MCP servers from npm, ${expectTools("raw-sdk")} tools`,
      setup: [
        `${names}: the servers of \`src/real-servers.ts\` (bench devDependencies, run with this Node, no network, no browser, no API key); each run in a fresh process; the clock starts at the call that begins connecting and stops when every tool of every server is in hand (${expectTools("raw-sdk")} tools; ${expectTools("mcp-rt")} in mcp-rt's registry, whose client declares \`roots\` (\`everything\` adds \`get-roots-list\`) and whose session adds \`mcp_list_resources\` and \`mcp_read_resource\` while a server has resources).`,
        `Start: mcp-rt is \`MCPManager.connectServers\` + \`AgentSession.refreshMCPTools\`, cold with an empty file-store cache each run, warm with the cache primed by an earlier, untimed run, in \`startupMode: "gate"\` and \`"cache-first"\`; raw SDK (v1, the targets' floor) and raw SDK v2 (\`@modelcontextprotocol/client\`, beside it): \`Client\` + \`StdioClientTransport\` per server, \`Promise.all\`, every \`tools/list\` page; LangChain: \`MultiServerMCPClient.getTools()\`. All of them${diagnostic ? " (with the diagnostic rows of the raw SDK, cold)" : ""} take turns in one run; the raw SDK's and LangChain's runs show in both tables, as they have no cache.`,
        ...(calls.length > 0
          ? [
              `Calls: ${Object.keys(callServers).join(", ")} connected (untimed), ${size.warmupRounds} untimed rounds, then ${size.rounds} timed rounds of ${calls.length} calls one after another (${timedCalls} calls): ${calls.map((spec) => `\`${spec.server}/${spec.tool}\``).join(", ")}; every answer checked. mcp-rt: \`MCPTool.execute\`; raw SDK and raw SDK v2: \`client.callTool\`; LangChain: the tool's \`.invoke\`.`,
            ]
          : []),
      ],
      tables: [
        cold,
        // Issue 35: spreading the spawns must give the first servers early and never make the last later.
        ...liveSpreadTables({
          what: "cold start, per server until its tools were listed",
          outcomes: pickOutcomes(starts, ["mcp-rt", "raw-sdk", "raw-sdk-v2"]),
          labels: START_LABELS,
          baseline: "raw-sdk",
        }),
        warm,
        ...callTables,
      ],
      details: [
        startPerServerTable(servers, starts),
        ...(calls.length > 0 ? [callsPerServerTable(calls, callOutcomes, CALL_LABELS)] : []),
      ],
      targets: [
        ratioAtMost({
          target: "cold start: mcp-rt ≤ 1.10 × raw SDK",
          of: msOf(starts.get("mcp-rt")),
          to: msOf(starts.get("raw-sdk")),
          limit: 1.1,
        }),
        medianAtMost({
          target: `warm start: mcp-rt, gate mode ≤ gate + 30 ms (gate = ${STARTUP_TIMEOUT_MS} ms)`,
          summary: msOf(warmGate),
          limit: STARTUP_TIMEOUT_MS + 30,
          unit: "ms",
        }),
        ratioAtMost({
          target: 'warm start: mcp-rt, `startupMode: "cache-first"` ≤ 0.25 × raw SDK',
          of: msOf(starts.get(WARM_CACHE_FIRST)),
          to: msOf(starts.get("raw-sdk")),
          limit: 0.25,
        }),
        ...(calls.length > 0
          ? [
              ratioAtMost({
                target: "calls: mcp-rt ≤ 1.05 × raw SDK",
                of: msOf(callOutcomes.get("mcp-rt")),
                to: msOf(callOutcomes.get("raw-sdk")),
                limit: 1.05,
              }),
              ratioAtMost({
                target: "calls: mcp-rt host CPU per call ≤ 1.10 × raw SDK",
                of: cpuPerCall(callOutcomes.get("mcp-rt")),
                to: cpuPerCall(callOutcomes.get("raw-sdk")),
                limit: 1.1,
              }),
            ]
          : []),
      ],
      notes: [
        ...(deferred
          ? [
              `mcp-rt, warm: a median of ${deferred.median} tools came from the cache (deferred, their servers still starting) in gate mode, ${cacheFirstDeferred?.median ?? "none"} in cache-first mode.`,
            ]
          : []),
        ...(diagnostic
          ? ownSessionNote(starts)
          : [
              'Cold start on a busy machine: mcp-rt starts every stdio server in a session of its own, which the autogroup scheduler gives a CPU share of its own while eight Node servers load at once (README, "Busy machines"); read the cold ratio with the load average in the head.',
            ]),
        ...diagnosticRowNote(
          starts,
          HOST_ENV,
          "with the host's environment is a diagnostic: its servers get the whole environment this run started in, as mcp-rt's do (less what looks secret), instead of the SDK's default six variables",
          "The head says whether this environment holds variables that slow every Node start; these servers are Node programs.",
        ),
        ...(gateStall
          ? [
              `In gate mode the gate is a timer, and a timer fires only when the event loop comes round: the longest event-loop stall of mcp-rt's warm gate-mode runs was ${gateStall.median.toFixed(1)} ms (median; \`spawn()\` of a server is synchronous, and these are ${size.servers.length} at once), which can hold the gate past its ${STARTUP_TIMEOUT_MS} ms.`,
            ]
          : []),
        "The cache-first target is a ratio, not scenario 1's 50 ms: with a warm cache mcp-rt hands the cached tools over without waiting for any server, so its start is a cache read and the registry, while everyone without a cache waits for the slowest real server to load its modules and answer. A quarter of the raw SDK's start leaves room for a slow disk and a busy machine and still fails if a warm start waits for a server.",
        ...(diagnostic
          ? [
              "The calls' raw SDK row with `setsid` is a diagnostic, as in scenario 3: the raw SDK with every server started in a session of its own, as mcp-rt starts stdio servers. It shows how much that alone moves a call on this machine.",
            ]
          : []),
        `LangChain connects its servers one after another, so it ran ${size.langchainRuns} time(s) without warm-up, against ${size.warmup} + ${size.runs} for the others.`,
      ],
    };
  },
};
