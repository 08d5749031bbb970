import { join } from "node:path";
import { STARTUP_TIMEOUT_MS } from "@mcp-rt/manager";
import { toolsPerFixture } from "../fixture-servers.js";
import { medianAtMost, ratioAtMost, type Scenario, type ScenarioReport } from "../scenario.js";
import { summarize } from "../stats.js";
import { runStartups, startupProject, startupTables } from "./startup-plans.js";

/** 1. Many slow servers, cache warm: tools in hand after the gate, not after the slowest server. */
export const warmStart: Scenario = {
  number: 1,
  id: "warm-start",
  title: "Warm start",
  async run(context): Promise<ScenarioReport> {
    const size = context.sizes.warmStart;
    const { dir, cwd, servers, expectTools } = await startupProject(context, {
      name: "warm-start",
      count: size.servers,
      fixture: { initDelayMs: size.initDelayMs, tools: size.toolsPerServer },
    });
    const cacheDir = join(dir, "cache");

    context.log(`priming the tool cache with ${size.servers} servers`);
    const primed = await context.worker({ kind: "prime-cache", servers, cwd, cacheDir });
    if (primed.cached !== size.servers) {
      throw new Error(`priming cached ${primed.cached} of ${size.servers} servers`);
    }

    const outcomes = await runStartups(context, { kind: "startup", servers, cwd, cacheDir, expectTools }, [
      { id: "mcp-rt", warmup: size.warmup, runs: size.runs },
      { id: "mcp-rt-cache-first", warmup: size.warmup, runs: size.runs },
      { id: "mcp-rt-approvals", warmup: size.warmup, runs: size.runs },
      { id: "raw-sdk", warmup: size.warmup, runs: size.runs },
      { id: "langchain", warmup: 0, runs: size.langchainRuns, timeoutMs: size.langchainTimeoutMs },
    ]);
    const tables = startupTables(outcomes, {
      time: "time until every tool is in hand",
      stall: "longest event-loop stall while starting (spawn() is synchronous; timers wait for it)",
    });
    const mcpRt = outcomes.get("mcp-rt")!;
    const cacheFirst = outcomes.get("mcp-rt-cache-first")!;
    const approvals = outcomes.get("mcp-rt-approvals")!;
    const missed = mcpRt.results.filter((result) => result.deferred < expectTools).length;
    const deferred = summarize(mcpRt.results.map((result) => result.deferred));
    const limit = STARTUP_TIMEOUT_MS + 30;
    return {
      number: 1,
      title: `Warm start: ${size.servers} stdio servers, each ${size.initDelayMs} ms slow to initialize, cache warm`,
      setup: [
        `${size.servers} \`slowInitServer(${size.initDelayMs})\` fixtures with ${toolsPerFixture(size.toolsPerServer)} tools each (${expectTools} tools); each run in a fresh process; the clock starts at the call that begins connecting (\`connectServers\`, the first \`client.connect\`, \`getTools()\`) and stops when every tool is in hand.`,
        `mcp-rt: \`MCPManager.connectServers\` with its file-store tool cache primed by an earlier, untimed run, then \`AgentSession.refreshMCPTools\` puts the tools into the agent's registry; tools of servers still starting are deferred tools from the cache, usable at once (a call waits for its server). Twice: with the default \`startupMode: "gate"\` (the design document: it returns at the gate) and with \`"cache-first"\` (it returns once every server has a cache entry; the example agent's mode).`,
        `mcp-rt with approvals: the cache-first run with an \`approvals\` store (a folder beside the cache) that the priming run filled: every server's approvals are read with its attempt, and its cached list is judged against them before it stands in.`,
        `raw SDK: \`Client\` + \`StdioClientTransport\` per server, \`Promise.all\`, every \`tools/list\` page. LangChain: \`new MultiServerMCPClient(…).getTools()\`.`,
      ],
      tables,
      targets: [
        medianAtMost({
          target: `mcp-rt, gate mode ≤ gate + 30 ms (gate = ${STARTUP_TIMEOUT_MS} ms)`,
          summary: summarize(mcpRt.results.map((result) => result.ms)),
          limit,
          unit: "ms",
        }),
        medianAtMost({
          target: 'mcp-rt, `startupMode: "cache-first"` ≤ 50 ms',
          summary: summarize(cacheFirst.results.map((result) => result.ms)),
          limit: 50,
          unit: "ms",
        }),
        ratioAtMost({
          target:
            "approved tool definitions checked (every cached list judged before it is handed over) ≤ 1.10 × cache-first without them, same run",
          of: summarize(approvals.results.map((result) => result.ms)),
          to: summarize(cacheFirst.results.map((result) => result.ms)),
          limit: 1.1,
        }),
      ],
      notes: [
        ...(missed > 0
          ? [
              `mcp-rt did not use the warm cache for every server in ${missed} of ${mcpRt.results.length} run(s): a server whose cache read did not settle in time is waited for instead of deferred.`,
            ]
          : []),
        ...(deferred
          ? [
              `mcp-rt: a median of ${deferred.median} of ${expectTools} tools came from the cache (deferred) in gate mode, ${summarize(cacheFirst.results.map((result) => result.deferred))?.median ?? "none"} in cache-first mode.`,
            ]
          : []),
        `LangChain connects its servers one after another, so it ran ${size.langchainRuns} time(s) without warm-up (bounded at ${Math.round(size.langchainTimeoutMs / 1000)} s per run), against ${size.warmup} + ${size.runs} for the others.`,
      ],
    };
  },
};
