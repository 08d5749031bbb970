import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { STARTUP_TIMEOUT_MS } from "@mcp-rt/manager";
import { alternate, type ContenderPlan } from "../alternate.js";
import { fixtureServers, toolsPerFixture } from "../fixture-servers.js";
import { medianAtMost, metricTable, type Scenario, type ScenarioReport } from "../scenario.js";
import { summarize } from "../stats.js";
import type { ContenderId, ReloadResult } from "../tasks.js";
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
    await mkdir(join(cwd, ".mcp-rt"), { recursive: true });
    await mkdir(homeDir);
    const servers = fixtureServers(size.servers, { tools: size.toolsPerServer });
    await writeFile(
      join(cwd, ".mcp-rt", "mcp.json"),
      `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`,
    );
    const expectTools = size.servers * toolsPerFixture(size.toolsPerServer);
    const plan = (id: ContenderId): ContenderPlan<ReloadResult> => ({
      id,
      warmup: size.warmup,
      runs: size.runs,
      run: () => context.worker({ kind: "reload", contender: id, cwd, homeDir, cacheDir, expectTools }),
    });
    const outcomes = await alternate([plan("mcp-rt"), plan("raw-sdk")], context.onRun);
    const table = (metric: string, pick: (result: ReloadResult) => number) =>
      metricTable({ metric, unit: "ms", outcomes, labels: LABELS, pick, baseline: "raw-sdk" });
    const mcpRt = outcomes.get("mcp-rt")!.results;
    const deferred = summarize(mcpRt.map((result) => result.deferred));
    return {
      number: 5,
      title: `Reload: disconnectAll + discoverAndConnect, ${size.servers} servers, cache warm`,
      setup: [
        `${size.servers} \`echoServer\` fixtures with ${toolsPerFixture(size.toolsPerServer)} tools each, in the project's \`.mcp-rt/mcp.json\` (found by real discovery; an empty home folder). Each run in a fresh process: a first start, untimed, waits until every server is live and cached; then the reload is timed.`,
        "mcp-rt: the design document's reload — `manager.disconnectAll()`, `manager.discoverAndConnect()`, `session.refreshMCPTools(manager.getTools())`. Raw SDK: close every client, read the config file again, connect + list every server again.",
      ],
      tables: [
        table("until the tools are back in hand", (result) => result.ms),
        table("of which disconnect", (result) => result.disconnectMs),
        table("of which discover + connect", (result) => result.connectMs),
      ],
      targets: [
        medianAtMost({
          target: `mcp-rt ≤ gate + 50 ms (gate = ${STARTUP_TIMEOUT_MS} ms)`,
          summary: summarize(mcpRt.map((result) => result.ms)),
          limit: STARTUP_TIMEOUT_MS + 50,
          unit: "ms",
        }),
      ],
      notes: [
        ...(deferred
          ? [
              `mcp-rt: a median of ${deferred.median} of ${expectTools} tools were back as deferred tools from the cache.`,
            ]
          : []),
        "LangChain is not run here: reload is not a LangChain operation beyond closing and starting again (scenario 2).",
      ],
    };
  },
};
