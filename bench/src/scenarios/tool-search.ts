import { AgentSession, type CustomTool, countToolTokens, MCPManager, type ToolMatch } from "@mcp-rt/session";
import { REAL_SERVER_PACKAGES, realServers } from "../real-servers.js";
import type { MetricTable, Scenario, ScenarioReport, TargetVerdict } from "../scenario.js";
import { summarize } from "../stats.js";
import { TOOL_SEARCH_QUERIES } from "../tool-search-queries.js";

const sum = (tools: readonly CustomTool[]): number =>
  tools.reduce((total, tool) => total + countToolTokens(tool), 0);
const percent = (part: number, whole: number): string => `${((part / whole) * 100).toFixed(1)} %`;

/** What `mcp_tool_search` answered for one query, and how long it took. */
interface Answer {
  matches: ToolMatch[];
  micros: number;
}

async function ask(tool: CustomTool, query: string): Promise<Answer> {
  const started = performance.now();
  const result = await tool.execute("bench", { query, limit: 5 });
  const micros = (performance.now() - started) * 1000;
  return { matches: result.details.rawContent as ToolMatch[], micros };
}

/**
 * 8. Tokens of the tool definitions on the first model request with tool
 * search off and on, and how often `mcp_tool_search` finds the tool a person
 * would pick, over eight real MCP servers from npm.
 */
export const toolSearch: Scenario = {
  number: 8,
  id: "tool-search",
  title: "Tool search",
  async run(context): Promise<ScenarioReport> {
    const dir = await context.tempDir("tool-search");
    const manager = new MCPManager(dir, { cache: null, startupTimeoutMs: 60_000 });
    try {
      const result = await manager.connectServers(realServers(dir));
      const failed = [...result.errors].map(([name, error]) => `${name}: ${error.message}`);
      if (failed.length > 0) throw new Error(`servers did not start: ${failed.join("; ")}`);
      const off = new AgentSession({ mcpManager: manager, toolSearch: "off" });
      const on = new AgentSession({ mcpManager: manager, toolSearch: "on" });
      off.syncMCPTools();
      on.syncMCPTools();
      const offFirst = sum(off.modelTools().visible());
      const onTools = on.modelTools();
      const onFirst = sum(onTools.visible());
      const labels = new Map(on.mcpTools().map((tool) => [tool.name, tool.label]));

      // The first search builds the index: timed on its own, out of the per-query numbers.
      const indexMs = (await ask(onTools.searchTool, "warm up")).micros / 1000;
      const answers: Answer[] = [];
      for (const { query } of TOOL_SEARCH_QUERIES) answers.push(await ask(onTools.searchTool, query));
      const ranks = TOOL_SEARCH_QUERIES.map(({ expect }, i) =>
        answers[i]!.matches.findIndex((match) => expect.includes(labels.get(match.name) ?? "")),
      );
      const hits = (k: number): number => ranks.filter((rank) => rank >= 0 && rank < k).length;
      const n = TOOL_SEARCH_QUERIES.length;
      const recall1 = hits(1) / n;
      const recall5 = hits(5) / n;
      // What a second request carries after one search loaded its five matches, over the queries.
      const afterOne = TOOL_SEARCH_QUERIES.map((_, i) => {
        const conversation = on.modelTools();
        conversation.load(answers[i]!.matches.map((match) => match.name));
        return sum(conversation.visible());
      });
      const afterOneMedian = summarize(afterOne)!.median;

      const { servers } = off.toolTokens();
      const rows = Object.entries(REAL_SERVER_PACKAGES).map(([name, pkg]) => {
        const server = servers[name];
        return `| ${name} | \`${pkg}\` | ${server?.tools ?? 0} | ${server?.tokens ?? 0} |`;
      });
      const totalTools = Object.values(servers).reduce((total, server) => total + server.tools, 0);
      const misses = TOOL_SEARCH_QUERIES.flatMap(({ query, expect }, i) =>
        ranks[i]! < 0
          ? [
              `"${query}" → wanted ${expect.join(" or ")}, got ${answers[i]!.matches.map((m) => labels.get(m.name)).join(", ") || "nothing"}`,
            ]
          : [],
      );
      const reduction = 1 - onFirst / offFirst;
      const perQuery = summarize(answers.map((answer) => answer.micros));
      const timing: MetricTable = {
        metric: "one `mcp_tool_search` call (rank + load), per query, index built",
        unit: "µs",
        rows: [{ contender: "mcp-rt", failures: [], ...(perQuery ? { summary: perQuery } : {}) }],
      };
      const targets: TargetVerdict[] = [
        {
          target: "tool search on sends ≥ 80 % fewer tokens of tool definitions on the first request",
          measured: `${percent(offFirst - onFirst, offFirst)} fewer (${offFirst} → ${onFirst} tokens)`,
          met: reduction >= 0.8,
        },
        {
          target: `recall@5 of mcp_tool_search ≥ 0.9 (${n} task sentences)`,
          measured: `recall@5 ${recall5.toFixed(3)} (${hits(5)} of ${n}), recall@1 ${recall1.toFixed(3)} (${hits(1)} of ${n})`,
          met: recall5 >= 0.9,
        },
      ];
      await Promise.all([off.dispose(), on.dispose()]);
      return {
        number: 8,
        title: `Tool search: ${Object.keys(REAL_SERVER_PACKAGES).length} real MCP servers, ${totalTools} tools`,
        setup: [
          'Eight MCP servers from npm (bench devDependencies, run with this Node, no network, no browser, no API key), connected by one `MCPManager`; two `AgentSession`s on it, `toolSearch: "off"` and `"on"`. Tokens: each definition as the request sends it (`modelToolDefinition`, JSON), o200k tokenizer (`countToolTokens`).',
          [
            "| server | package | tools | tokens |",
            "| --- | --- | ---: | ---: |",
            ...rows,
            `| all | | ${totalTools} | ${offFirst} |`,
          ].join("\n"),
          [
            "| tool definitions sent | tokens |",
            "| --- | ---: |",
            `| first request, search off (every tool) | ${offFirst} |`,
            `| first request, search on (\`mcp_tool_search\` only) | ${onFirst} |`,
            `| next request after one search (its 5 matches loaded), median over the queries | ${afterOneMedian} |`,
          ].join("\n"),
          `Selection quality: ${n} task sentences of \`src/tool-search-queries.ts\`, each with the tool a person would pick (either browser server's tool counts where both do the job), asked of \`mcp_tool_search\` with \`limit: 5\`: recall@1 ${recall1.toFixed(3)}, recall@5 ${recall5.toFixed(3)}.`,
        ],
        tables: [timing],
        targets,
        notes: [
          `The first search of a tool set builds its index: ${indexMs.toFixed(1)} ms for these ${totalTools} tools.`,
          ...(misses.length > 0 ? [`Not in the top five: ${misses.join("; ")}.`] : []),
        ],
      };
    } finally {
      await manager.close();
    }
  },
};
