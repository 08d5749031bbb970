import { toolSummary } from "@mcp-rt/session";
import type { Model } from "./model.js";

/** How many matching tools the offline model lists. */
const SHOWN = 8;

/**
 * The model used without an API key. It does not pretend: it says it is
 * offline, lists the tools that fit the words typed (the session's tool
 * search ranking, the same as `mcp_tool_search`), and shows how to run one
 * with `/call`.
 */
export function createOfflineModel(): Model {
  return {
    description: "offline (no language model: set OPENAI_API_KEY or use --model openai for one)",
    async respond(input, turn) {
      const query = input.trim();
      const matches = turn.tools.toolSearch.rank(query, SHOWN + 1);
      const lines = ["[offline] No language model is configured, so I cannot answer in words."];
      if (matches.length === 0) {
        lines.push(`No tool matches "${query}"; /tools lists them all.`);
      } else {
        lines.push(`Tools matching "${query}":`);
        for (const tool of matches.slice(0, SHOWN)) {
          lines.push(`  ${tool.name}  ${toolSummary(tool.description)}`);
        }
        if (matches.length > SHOWN) lines.push(`  … and more (/tools ${query})`);
        lines.push(`Run one with /call <tool> <json arguments>, e.g. /call ${matches[0]!.name} {}`);
      }
      turn.output.write("answer", lines.join("\n"), {
        model: "offline",
        matches: matches.map((tool) => tool.name),
      });
      return true;
    },
  };
}
