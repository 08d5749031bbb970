import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { alternate, type ContenderOutcome } from "../alternate.js";
import { realServerProject } from "../real-server-calls.js";
import { expectedRealTools, listedRealTools } from "../real-servers.js";
import { metricTable, type Scenario, type ScenarioReport } from "../scenario.js";
import type { StartupResult } from "../tasks.js";

const QUIET = "quiet";
const BUSY = "busy";

/** The example agent's bound on the hard wait (`createAgentSession`'s default). */
const AGENT_MAX_STARTUP_WAIT_MS = 5000;

/** Starts `count` processes that spin on a CPU each until they are killed. */
function startBusyProcesses(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
  );
}

async function stopBusyProcesses(busy: ChildProcess[]): Promise<void> {
  await Promise.all(
    busy.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
        }),
    ),
  );
}

const timeouts = (outcome: ContenderOutcome<StartupResult> | undefined) =>
  outcome?.results.flatMap((result) => result.cacheReads?.timeouts ?? []) ?? [];

/**
 * 11. Why a warm start's cache read can time out: the agent's start (cache
 * first, the 5 s bound) over eight cached real servers, on a quiet machine
 * and beside CPU-bound processes, with every store read's time and what the
 * cache says of a read it stopped waiting for (how late its timers fired and
 * how far it stretched the limit) and of that read's late answer.
 */
export const busyCacheReads: Scenario = {
  number: 11,
  id: "busy-cache-reads",
  title: "Cache reads on a busy machine",
  async run(context): Promise<ScenarioReport> {
    const size = context.sizes.busyCacheReads;
    const dir = await context.tempDir("busy-cache-reads");
    const { cwd, servers } = await realServerProject(dir, size.servers);
    const cacheDir = join(dir, "cache");
    context.log(`priming the tool cache with ${size.servers.length} real servers`);
    const primed = await context.worker({ kind: "prime-cache", servers, cwd, cacheDir });
    if (primed.cached !== size.servers.length) {
      throw new Error(`priming cached ${primed.cached} of ${size.servers.length} servers`);
    }
    const expectTools = expectedRealTools(size.servers, "mcp-rt");
    const cachedTools = listedRealTools(size.servers, "mcp-rt");
    const plan = (id: string) => ({
      id,
      warmup: size.warmup,
      runs: size.runs,
      run: () =>
        context.worker({
          kind: "startup",
          contender: "mcp-rt-cache-first",
          servers,
          cwd,
          cacheDir,
          expectTools,
          maxStartupWaitMs: AGENT_MAX_STARTUP_WAIT_MS,
          logCacheReads: true,
        }),
    });
    const quiet = await alternate([plan(QUIET)], context.onRun);
    context.log(`starting ${size.busyProcesses} CPU-bound processes`);
    const busyProcesses = startBusyProcesses(size.busyProcesses);
    let busy: Map<string, ContenderOutcome<StartupResult>>;
    try {
      busy = await alternate([plan(BUSY)], context.onRun);
    } finally {
      await stopBusyProcesses(busyProcesses);
    }
    const outcomes = new Map([...quiet, ...busy]);
    const labels: Record<string, string> = {
      [QUIET]: "mcp-rt, quiet machine",
      [BUSY]: `mcp-rt, beside ${size.busyProcesses} CPU-bound processes`,
    };
    const table = (metric: string, pick: (result: StartupResult) => number) =>
      metricTable({ metric, unit: "ms", outcomes, labels, pick });
    const readsGivenUp = (id: string) => timeouts(outcomes.get(id));
    const lateAnswers = [...outcomes.values()].flatMap((outcome) =>
      outcome.results.flatMap((result) => result.cacheReads?.late ?? []),
    );
    const runs = (id: string) => outcomes.get(id)?.results.length ?? 0;
    return {
      number: 11,
      title: `Cache reads on a busy machine: ${size.servers.length} cached real servers, the agent's start`,
      setup: [
        `${size.servers.join(", ")} (scenario 10's servers), their tools cached by an untimed run. Each run is mcp-rt's start as the example agent makes it (\`startupMode: "cache-first"\`, \`maxStartupWaitMs: ${AGENT_MAX_STARTUP_WAIT_MS}\`, the file store, \`readTimeoutMs\` 100) in a fresh process, first on the machine as it is, then with ${size.busyProcesses} processes spinning on a CPU each beside it (\`node -e "for (;;) {}"\`).`,
        "Every store read is timed (the file store's `get`, from call to answer), and the cache's debug lines are kept: for a read it stopped waiting for, how long it waited, how late its timers fired (the event loop held by someone else) and how far it stretched the limit for that; and when that read's answer came.",
      ],
      tables: [
        table("start: until every tool is in hand", (result) => result.ms),
        table("slowest store read of the start", (result) =>
          Math.max(0, ...(result.cacheReads?.readMs ?? [])),
        ),
      ],
      // In cache-first mode a server whose read found its entry launches only after the handoff: every
      // tool handed over came from the cache unless a server was waited for.
      targets: [QUIET, BUSY].map((id) => {
        const fewest = Math.min(...(outcomes.get(id)?.results.map((result) => result.deferred) ?? [0]));
        const failed = outcomes.get(id)?.failures.length ?? 0;
        return {
          target: `${labels[id]}: no start waits for a cached server (all ${cachedTools} tools handed over from the cache)`,
          measured:
            runs(id) === 0
              ? "not measured"
              : `fewest from the cache in ${runs(id)} start(s): ${fewest}${failed > 0 ? `, ${failed} failed` : ""}`,
          met: runs(id) > 0 && failed === 0 && fewest === cachedTools,
        };
      }),
      notes: [
        ...[QUIET, BUSY].map((id) => {
          const given = readsGivenUp(id);
          return given.length === 0
            ? `${labels[id]}: no read timed out in ${runs(id)} start(s).`
            : `${labels[id]}: ${given.length} read(s) timed out in ${runs(id)} start(s): ${given
                .map(
                  (read) =>
                    `"${read.server}" after ${read.elapsedMs.toFixed(0)} ms (timers late by ${read.lateMs.toFixed(0)} ms, limit stretched by ${read.stretchMs.toFixed(0)} ms)`,
                )
                .join("; ")}.`;
        }),
        ...(lateAnswers.length > 0
          ? [
              `Their answers came ${lateAnswers.map((late) => `${late.afterMs.toFixed(0)} ms later ("${late.server}", ${late.found ? "an entry" : "nothing"})`).join(", ")}; an entry that lands before its server is up stands in for it (deferred tools) instead of a wait.`,
            ]
          : []),
      ],
    };
  },
};
