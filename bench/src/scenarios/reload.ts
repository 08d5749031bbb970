import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { mcpRtPath } from "@mcp-rt/config";
import { STARTUP_TIMEOUT_MS } from "@mcp-rt/manager";
import { alternate, type ContenderPlan } from "../alternate.js";
import { fixtureServers, toolsPerFixture } from "../fixture-servers.js";
import { medianAtMost, metricTable, type Scenario, type ScenarioReport } from "../scenario.js";
import { summarize } from "../stats.js";
import type { ContenderId, ReloadResult, ReloadTask } from "../tasks.js";
import { LABELS } from "./startup-plans.js";

/** 5. `/mcp reload` with a warm cache: tools back after about one gate. */
export const reload: Scenario = {
  number: 5,
  id: "reload",
  title: "Reload",
  async run(context): Promise<ScenarioReport> {
    const size = context.sizes.reload;
    const dir = await context.tempDir("reload");
    const cwd = join(dir, "project");
    const homeDir = join(dir, "home");
    const cacheDir = join(dir, "cache");
    const configFile = mcpRtPath("mcp.json", cwd);
    await mkdir(dirname(configFile), { recursive: true });
    await mkdir(homeDir);
    const servers = fixtureServers(size.servers, { tools: size.toolsPerServer });
    await writeFile(configFile, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
    const expectTools = size.servers * toolsPerFixture(size.toolsPerServer);
    const plan = (id: ContenderId, change?: ReloadTask["change"]): ContenderPlan<ReloadResult> => ({
      id: change ? `${id}-${change}` : id,
      warmup: size.warmup,
      runs: size.runs,
      run: () =>
        context.worker({
          kind: "reload",
          contender: id,
          cwd,
          homeDir,
          cacheDir,
          expectTools,
          ...(change ? { change } : {}),
        }),
    });
    const outcomes = await alternate(
      [plan("mcp-rt"), plan("raw-sdk"), plan("mcp-rt", "all"), plan("mcp-rt", "none"), plan("mcp-rt", "one")],
      context.onRun,
    );
    const labels = {
      ...LABELS,
      "mcp-rt": "mcp-rt, everything restarted (`disconnectAll` + `discoverAndConnect`)",
      "mcp-rt-all": "mcp-rt `/mcp reload --all`, everything restarted",
      "mcp-rt-none": "mcp-rt `/mcp reload`, nothing changed",
      "mcp-rt-one": `mcp-rt \`/mcp reload\`, 1 of ${size.servers} changed`,
    };
    const table = (metric: string, pick: (result: ReloadResult) => number) =>
      metricTable({ metric, unit: "ms", outcomes, labels, pick, baseline: "raw-sdk" });
    const mcpRt = outcomes.get("mcp-rt")!.results;
    const deferred = summarize(mcpRt.map((result) => result.deferred));
    const disconnect = summarize(mcpRt.map((result) => result.disconnectMs));
    const rawClose = summarize(outcomes.get("raw-sdk")!.results.map((result) => result.disconnectMs));
    const none = summarize(outcomes.get("mcp-rt-none")!.results.map((result) => result.ms));
    const one = outcomes.get("mcp-rt-one")!;
    const oneStart = summarize(one.results.map((result) => result.oneStartMs ?? Number.NaN));
    const alone = new Map([["mcp-rt-one", one]]);
    return {
      number: 5,
      title: `Reload: everything restarted, and only what changed, ${size.servers} servers, cache warm`,
      setup: [
        `${size.servers} \`echoServer\` fixtures with ${toolsPerFixture(size.toolsPerServer)} tools each, in the project's \`.mcp-rt/mcp.json\` (found by real discovery; an empty home folder). Each run in a fresh process: a first start, untimed, waits until every server is live and cached; then the reload is timed.`,
        "mcp-rt, everything restarted: the design document's reload — `manager.disconnectAll()`, `manager.discoverAndConnect()`, `session.refreshMCPTools(manager.getTools())`. Raw SDK: close every client, read the config file again, connect + list every server again.",
        "mcp-rt `/mcp reload --all`: `session.reload({ all: true })` — discovery again and every server restarted, the old processes closing while the new ones start (the design document's reload waits for every old process to exit before it starts the new ones), the registry refreshed.",
        `mcp-rt \`/mcp reload\`: \`session.reload()\` — discovery again, the diff against what runs, only changed servers restarted, the registry refreshed. "1 changed": the first server's args were edited before the reload (its cache entry misses, so it is waited for); "one server alone" is that edited server started by itself on a fresh manager without a cache, in the same process right after.`,
      ],
      tables: [
        table("until the tools are back in hand", (result) => result.ms),
        table("of which disconnect", (result) => result.disconnectMs),
        table("of which discover + connect", (result) => result.connectMs),
        metricTable({
          metric: "one server alone (the edited one, cold)",
          unit: "ms",
          outcomes: alone,
          labels,
          pick: (result) => result.oneStartMs ?? Number.NaN,
        }),
      ],
      targets: [
        medianAtMost({
          target: `mcp-rt, everything restarted ≤ gate + 50 ms (gate = ${STARTUP_TIMEOUT_MS} ms)`,
          summary: summarize(mcpRt.map((result) => result.ms)),
          limit: STARTUP_TIMEOUT_MS + 50,
          unit: "ms",
        }),
        medianAtMost({
          target: `mcp-rt \`/mcp reload\`, nothing changed ≤ 20 ms (${size.servers} servers)`,
          summary: none,
          limit: 20,
          unit: "ms",
        }),
        medianAtMost({
          target: "mcp-rt `/mcp reload`, 1 changed ≤ one server alone + 20 ms (medians)",
          summary: oneStart && summarize(one.results.map((result) => result.ms)),
          limit: (oneStart?.median ?? 0) + 20,
          unit: "ms",
          why: "the edited server did not start alone",
        }),
      ],
      notes: [
        ...(deferred
          ? [
              `mcp-rt: a median of ${deferred.median} of ${expectTools} tools were back as deferred tools from the cache.`,
            ]
          : []),
        ...(disconnect && rawClose
          ? [
              `The design document's reload starts the new servers only once \`disconnectAll\` has seen every old process exit (a median of ${Math.round(disconnect.median)} ms here; the raw SDK's close of the same servers took ${Math.round(rawClose.median)} ms), and in gate mode \`discoverAndConnect\` returns at the gate: the two add up. \`/mcp reload --all\` closes the old processes while the new ones start.`,
            ]
          : []),
        "LangChain is not run here: reload is not a LangChain operation beyond closing and starting again (scenario 2).",
      ],
    };
  },
};
