import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fixtureServers, toolsPerFixture } from "../fixture-servers.js";
import { metricTable, ratioAtMost, type Scenario, type ScenarioReport } from "../scenario.js";
import { summarize } from "../stats.js";
import { LABELS, runStartups } from "./startup-plans.js";

/** 6. One server with thousands of tools in pages: listing, naming and registering them. */
export const bigToolList: Scenario = {
  number: 6,
  id: "big-tool-list",
  title: "Big tool lists",
  async run(context): Promise<ScenarioReport> {
    const size = context.sizes.bigList;
    const dir = await context.tempDir("big-tool-list");
    const cwd = join(dir, "project");
    await mkdir(cwd);
    const servers = fixtureServers(1, { tools: size.tools, pageSize: size.pageSize });
    const expectTools = toolsPerFixture(size.tools);
    let run = 0;
    const outcomes = await runStartups(
      context,
      { kind: "startup", servers, cwd, expectTools, cacheDir: () => join(dir, `cache-${++run}`) },
      [
        { id: "mcp-rt", warmup: size.warmup, runs: size.runs },
        { id: "raw-sdk", warmup: size.warmup, runs: size.runs },
        { id: "raw-sdk-v2", warmup: size.warmup, runs: size.runs },
        { id: "langchain", warmup: 0, runs: size.langchainRuns },
      ],
    );
    const time = metricTable({
      metric: "connect + list (+ name + register) until every tool is in hand",
      unit: "ms",
      outcomes,
      labels: LABELS,
      pick: (result) => result.ms,
      baseline: "raw-sdk",
    });
    const ms = (id: string) => summarize(outcomes.get(id)?.results.map((result) => result.ms) ?? []);
    return {
      number: 6,
      title: `Big tool lists: one server with ${size.tools} tools in pages of ${size.pageSize}`,
      setup: [
        `\`manyToolsServer(${size.tools}, { pageSize: ${size.pageSize} })\` (${expectTools} tools with \`echo\`, ${Math.ceil(expectTools / size.pageSize)} pages); each run in a fresh process; the clock starts at the call that begins connecting.`,
        "mcp-rt: `connectServers` (connect, every page, validation, `mcp_<server>_<tool>` names, `MCPTool`s, the cache write of a first start) and `AgentSession.refreshMCPTools` into the registry. Raw SDK: connect and every `tools/list` page. LangChain: `getTools()` (its tools carry schemas converted for LangChain).",
      ],
      tables: [time],
      targets: [
        ratioAtMost({
          target: "mcp-rt list + name + register ≤ 1.2 × raw SDK listing",
          of: ms("mcp-rt"),
          to: ms("raw-sdk"),
          limit: 1.2,
        }),
      ],
      notes: [`LangChain ran ${size.langchainRuns} time(s) without warm-up.`],
    };
  },
};
