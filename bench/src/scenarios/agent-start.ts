import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { alternate, type ContenderPlan } from "../alternate.js";
import { withoutNodeStartVariables } from "../machine.js";
import { medianAtMost, metricTable, ratioAtMost, type Scenario, type ScenarioReport } from "../scenario.js";
import { summarize } from "../stats.js";

/** The example agent, as `pnpm build` leaves it. */
const AGENT_MAIN = fileURLToPath(new URL("../../../apps/agent/dist/main.js", import.meta.url));

/** One process, timed from `spawn` on. */
interface ProcessRun {
  /** Until the agent printed its `ready` event (tools in hand); a bare `node` has none: until it exited. */
  readyMs: number;
  totalMs: number;
  /** The agent: from the `ready` line to the exit (`/quit`, closing the servers). */
  shutdownMs: number;
  /** Tools that came from the cache. */
  deferred: number;
  /** Tools in hand at the `ready` line. */
  tools: number;
  /** The agent's minor page faults when its `ready` line arrived (Linux; memory it had touched). */
  faults?: number;
}

interface Sandbox {
  project: string;
  cacheUrl: string;
  env: NodeJS.ProcessEnv;
}

/** A running process's minor page faults so far (`/proc/<pid>/stat`, field 10), where Linux tells. */
function minorFaults(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command's name, which is in parentheses and may hold spaces: state is field 3.
    const minflt = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[7]);
    return Number.isFinite(minflt) ? minflt : undefined;
  } catch {
    return undefined;
  }
}

/** A bare `node`'s minor page faults when it runs its first line of code. */
function bareNodeFaults(env: NodeJS.ProcessEnv, cwd: string): number | undefined {
  const run = spawnSync(process.execPath, ["-p", "process.resourceUsage().minorPageFault"], { env, cwd });
  const faults = Number(run.stdout?.toString().trim());
  return run.status === 0 && Number.isFinite(faults) ? faults : undefined;
}

/** What touching memory for the first time costs here, per 4 KB page, in µs (a 64 MB buffer filled). */
function firstTouchMicrosPerPage(): number {
  const bytes = 64 * 2 ** 20;
  const started = performance.now();
  Buffer.allocUnsafeSlow(bytes).fill(1);
  return ((performance.now() - started) * 1000) / (bytes / 4096);
}

/** Runs one process; with `expectTools`, an agent run with another count of tools in hand fails. */
function timeProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  expectTools?: number,
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let ready: { ms: number; line: string; faults: number | undefined } | undefined;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (ready) return;
      const line = stdout.split("\n").find((text) => text.includes('"event":"ready"'));
      if (line && stdout.includes(`${line}\n`)) {
        ready = { ms: performance.now() - started, line, faults: minorFaults(child.pid) };
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const totalMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`exit code ${code}: ${stderr.trim() || stdout.trim()}`));
      if (!ready) return resolve({ readyMs: totalMs, totalMs, shutdownMs: 0, deferred: 0, tools: 0 });
      const event = JSON.parse(ready.line) as {
        toolCount: number;
        servers: Array<{ deferred: boolean; toolCount: number }>;
      };
      if (expectTools !== undefined && event.toolCount !== expectTools) {
        return reject(new Error(`the agent had ${event.toolCount} tools in hand, not ${expectTools}`));
      }
      const deferred = event.servers
        .filter((server) => server.deferred)
        .reduce((sum, s) => sum + s.toolCount, 0);
      resolve({
        readyMs: ready.ms,
        totalMs,
        shutdownMs: totalMs - ready.ms,
        deferred,
        tools: event.toolCount,
        ...(ready.faults === undefined ? {} : { faults: ready.faults }),
      });
    });
  });
}

async function sandbox(dir: string): Promise<Sandbox> {
  const [home, cache, tmp, project] = ["home", "cache", "tmp", "project"].map((name) => join(dir, name));
  await Promise.all([home, cache, tmp, project].map((folder) => mkdir(folder!, { recursive: true })));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CACHE_HOME: cache, TMPDIR: tmp };
  for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "XDG_CONFIG_HOME"]) delete env[name];
  return { project: project!, cacheUrl: `file:${cache}`, env };
}

/** 9. The example agent's process on a warm cache, timed from outside against a bare `node`. */
export const agentStart: Scenario = {
  number: 9,
  id: "agent-start",
  title: "Example agent process, warm start",
  async run(context): Promise<ScenarioReport> {
    const size = context.sizes.agentStart;
    if (!existsSync(AGENT_MAIN)) throw new Error(`${AGENT_MAIN} is missing: run "pnpm build" first`);
    const box = await sandbox(await context.tempDir("agent-start"));
    const agentArgs = [
      AGENT_MAIN,
      "--demo",
      "--json",
      "--cwd",
      box.project,
      "--cache",
      box.cacheUrl,
      "--exec",
      "/quit",
    ];
    context.log("priming the agent's tool cache and code cache with one untimed start");
    const primed = await timeProcess(agentArgs, box.env, box.project);
    if (primed.deferred !== 0) throw new Error("the cache was not empty before priming");
    // A warm start must have in hand what the cold one listed.
    const expectTools = primed.tools;
    if (expectTools === 0) throw new Error("the priming start had no tools in hand");

    // Diagnostic rows: both again without the variables that slow every Node start, when they are set.
    const { names: slowing, env: plainEnv } = withoutNodeStartVariables(box.env);
    const plans: ContenderPlan<ProcessRun>[] = [
      { id: "agent", ...size, run: () => timeProcess(agentArgs, box.env, box.project, expectTools) },
      { id: "node", ...size, run: () => timeProcess(["-e", "0"], box.env, box.project) },
      ...(slowing.length > 0
        ? [
            {
              id: "agent-plain-env",
              ...size,
              run: () => timeProcess(agentArgs, plainEnv, box.project, expectTools),
            },
            { id: "node-plain-env", ...size, run: () => timeProcess(["-e", "0"], plainEnv, box.project) },
          ]
        : []),
    ];
    const outcomes = await alternate(plans, context.onRun);
    const without = `without ${slowing.map((name) => `\`${name}\``).join(" and ")}`;
    const labels = {
      agent: "mcp-rt, the example agent (`--demo --exec /quit`)",
      node: "bare `node -e 0`",
      "agent-plain-env": `the example agent, ${without} (diagnostic)`,
      "node-plain-env": `bare \`node -e 0\`, ${without} (diagnostic)`,
    };
    const pick = (id: string, value: (run: ProcessRun) => number) =>
      summarize(outcomes.get(id)?.results.map(value) ?? []);
    const ready = metricTable({
      metric: "from spawn until the tools are in hand (the agent's `ready` line; bare node: its exit)",
      unit: "ms",
      outcomes,
      labels,
      pick: (run) => run.readyMs,
      baseline: "node",
    });
    const whole = metricTable({
      metric: "whole process, spawn to exit",
      unit: "ms",
      outcomes,
      labels,
      pick: (run) => run.totalMs,
      baseline: "node",
    });
    const shutdown = metricTable({
      metric: "of which `/quit` and the servers' shutdown (the `ready` line to the exit)",
      unit: "ms",
      outcomes: new Map([["agent", outcomes.get("agent")!]]),
      labels,
      pick: (run) => run.shutdownMs,
    });
    const deferred = pick("agent", (run) => run.deferred);
    const faults = summarize(outcomes.get("agent")?.results.flatMap((run) => run.faults ?? []) ?? []);
    const memory: MemoryTouched | undefined =
      faults === undefined
        ? undefined
        : {
            agentFaults: faults.median,
            nodeFaults: bareNodeFaults(box.env, box.project),
            microsPerPage: firstTouchMicrosPerPage(),
          };
    return {
      number: 9,
      title: "Example agent process: warm start of the demo, timed from outside",
      setup: [
        `\`node apps/agent/dist/main.js --demo --json --exec /quit\` (the demo's four servers, ${expectTools} tools; \`startupMode: "cache-first"\`) in a private home, cache and temp folder, its tool cache and the bin's V8 code cache primed by one untimed start; against \`node -e 0\`, taking turns. The clock starts at \`spawn\` and includes Node's own start and every module the agent loads.`,
      ],
      tables: [ready, whole, shutdown],
      targets: [
        medianAtMost({
          target: "example agent: tools in hand ≤ 150 ms after spawn",
          summary: pick("agent", (run) => run.readyMs),
          limit: 150,
          unit: "ms",
        }),
        ratioAtMost({
          target: "example agent: whole process minus the servers' shutdown ≤ 2 × bare `node -e 0`",
          of: pick("agent", (run) => run.totalMs - run.shutdownMs),
          to: pick("node", (run) => run.totalMs),
          limit: 2,
        }),
      ],
      notes: [
        ...(deferred
          ? [`A median of ${deferred.median} of ${expectTools} tools came from the cache (deferred).`]
          : []),
        "The servers keep starting after the `ready` line; `/quit` stops them, which is the shutdown row.",
        ...(slowing.length > 0
          ? [
              `The diagnostic rows run both ${without}, which this machine sets for every process (the head names what it costs a \`node -e 0\`): there the agent had its tools in hand after ${pick("agent-plain-env", (run) => run.readyMs)?.median.toFixed(1) ?? "—"} ms and a bare \`node\` exited after ${pick("node-plain-env", (run) => run.readyMs)?.median.toFixed(1) ?? "—"} ms. The targets are read from the first two rows, in the environment as given.`,
            ]
          : []),
        ...readyBudgetNote(
          pick("agent", (run) => run.readyMs)?.median,
          pick("node", (run) => run.readyMs)?.median,
          memory,
        ),
      ],
    };
  },
};

/** Memory the agent had touched by its `ready` line, against a bare `node`, and what that costs here. */
interface MemoryTouched {
  /** The agent's minor page faults at its `ready` line (median). */
  agentFaults: number;
  /** A bare `node`'s when it runs its first line. */
  nodeFaults: number | undefined;
  /** Touching a page for the first time, in µs. */
  microsPerPage: number;
}

/**
 * The 150 ms limit is absolute, and Node's own start is most of it: what the agent itself took,
 * and where a profile of its start puts that time (docs/architecture.md, "The startup gate", on the start path).
 */
function readyBudgetNote(
  agentMs: number | undefined,
  nodeMs: number | undefined,
  memory: MemoryTouched | undefined,
): string[] {
  if (agentMs === undefined || nodeMs === undefined) return [];
  const pages = memory?.nodeFaults === undefined ? undefined : memory.agentFaults - memory.nodeFaults;
  return [
    `The limit is absolute: a bare \`node -e 0\` took ${nodeMs.toFixed(1)} ms of it here, the agent ${(agentMs - nodeMs).toFixed(1)} ms more. A \`--cpu-prof\` of the agent's start puts about a fifth of that in each of three parts, reading the 600 KB bundle and its V8 code cache and deserializing it, the Node modules the bundle loads (\`node:crypto\`, which the cache's HMACs need, with the streams it loads, and \`node:fs/promises\`), and the bundle's module init (zod/mini and the config schemas) with two or three young-generation collections, and the rest, about two fifths, in the start path itself (discovery, the four cache reads with their HMACs, the session and its registry).`,
    ...(memory && pages !== undefined
      ? [
          `Much of that is memory touched for the first time: by its \`ready\` line the agent had taken ${memory.agentFaults} minor page faults (median), a bare \`node\` ${memory.nodeFaults} when it ran its first line: ${pages} pages of 4 KB (${((pages * 4) / 1024).toFixed(1)} MB) more, and touching a page for the first time took ${memory.microsPerPage.toFixed(1)} µs on this machine (a 64 MB buffer filled), about ${((pages * memory.microsPerPage) / 1000).toFixed(0)} ms for those pages.`,
        ]
      : []),
  ];
}
