import type { Model } from "./model.js";
import { queryWords, rankTools, summary } from "./tool-search.js";

/** How many matching tools the offline model lists. */
const SHOWN = 8;

/**
 * The model used without an API key. It does not pretend: it says it is
 * offline, lists the tools whose names and descriptions match the words typed,
 * and shows how to run one with `/call`.
 */
export function createOfflineModel(): Model {
  return {
    description: "offline (no language model: set OPENAI_API_KEY or use --model openai for one)",
    async respond(input, turn) {
      const words = queryWords(input);
      const matches = words.length === 0 ? [] : rankTools(turn.tools, input);
      const lines = ["[offline] No language model is configured, so I cannot answer in words."];
      if (matches.length === 0) {
        lines.push(
          words.length === 0
            ? `Type what you want to do and I list the tools that fit; /tools lists all ${turn.tools.length}.`
            : `No tool matches "${words.join(" ")}"; /tools lists all ${turn.tools.length}.`,
        );
      } else {
        lines.push(`Tools matching "${words.join(" ")}":`);
        for (const tool of matches.slice(0, SHOWN)) {
          lines.push(`  ${tool.name}  ${summary(tool.description)}`);
        }
        if (matches.length > SHOWN)
          lines.push(`  … and ${matches.length - SHOWN} more (/tools ${words.join(" ")})`);
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
