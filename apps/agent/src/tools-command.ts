import { plural } from "@mcp-rt/config/util";
import {
  type AgentSession,
  countToolTokens,
  formatTokens,
  type MCPManager,
  toolSummary,
} from "@mcp-rt/session";
import type { Output } from "./output.js";

/** How many tools `/tools --cost` lists. */
const COST_ROWS = 15;

/** Names of the servers whose tools are deferred (served from the cache while the server starts). */
function deferredServers(manager: MCPManager | undefined): Set<string> {
  return new Set(
    (manager?.getServerStates() ?? []).filter((state) => state.deferred).map((state) => state.name),
  );
}

/** `server/tool` of every tool a server offers only to an app's UI (MCP Apps), which the model never gets. */
function appOnlyTools(manager: MCPManager | undefined): string[] {
  return (manager?.getServerStates() ?? []).flatMap((state) =>
    (state.appOnlyTools ?? []).map((tool) => `${state.name}/${tool}`),
  );
}

/**
 * `/tools [words]` lists the active tools (those matching the words, best
 * first, by the session's one ranking); `/tools search <words>` shows what
 * `mcp_tool_search` would answer the model; `/tools --cost` lists the tools
 * whose definitions cost the model the most tokens. Without words it also
 * names the app-only tools (MCP Apps), which are not given to the model.
 */
export function toolsCommand(session: AgentSession, output: Output, words: readonly string[]): void {
  const { toolSearch } = session;
  if (words[0] === "--cost") {
    const costs = session
      .activeTools()
      .map((tool) => ({ name: tool.name, label: tool.label, tokens: countToolTokens(tool) }))
      .sort((a, b) => b.tokens - a.tokens);
    const total = costs.reduce((sum, tool) => sum + tool.tokens, 0);
    const lines = costs
      .slice(0, COST_ROWS)
      .map((tool) => `  ${formatTokens(tool.tokens).padStart(7)}  ${tool.name}  (${tool.label})`);
    output.write(
      "result",
      [
        `${plural(costs.length, "tool")}, ${formatTokens(total)} tokens of definitions; the most expensive:`,
        ...lines,
        toolSearch.describe(),
      ].join("\n"),
      { command: "tools", total, tools: costs, toolSearch: toolSearch.active },
    );
    return;
  }
  if (words[0] === "search") {
    const query = words.slice(1).join(" ");
    const answer = toolSearch.answer(query);
    const note = toolSearch.active ? "" : `\n(${toolSearch.describe()}: the model gets every tool now.)`;
    output.write("result", `mcp_tool_search ${JSON.stringify({ query })} answers:\n${answer.text}${note}`, {
      command: "tools",
      search: query,
      matches: answer.matches,
      toolSearch: toolSearch.active,
    });
    return;
  }
  const filter = words.join(" ").trim();
  const all = session.activeTools();
  const shown = toolSearch.rank(filter);
  const deferred = deferredServers(session.mcpManager);
  const lines = shown.map((tool) => {
    const server = tool.label.split("/")[0] ?? "";
    const mark = deferred.has(server) ? " (deferred: from the cache, server starting)" : "";
    const description = toolSummary(tool.description);
    return `  ${tool.name}${mark}\n      ${tool.label}${description ? ` — ${description}` : ""}`;
  });
  const title = filter ? `${shown.length} of ${all.length} tools match "${filter}":` : `${all.length} tools:`;
  const appOnly = filter ? [] : appOnlyTools(session.mcpManager);
  const appLines =
    appOnly.length > 0
      ? [
          `${plural(appOnly.length, "app-only tool")} (for an MCP App's UI; not given to the model):`,
          ...appOnly.map((label) => `  ${label}`),
        ]
      : [];
  output.write("result", [title, ...lines, ...appLines].join("\n"), {
    command: "tools",
    tools: shown.map((tool) => ({ name: tool.name, label: tool.label, description: tool.description })),
    ...(appOnly.length > 0 ? { appOnly } : {}),
  });
}
