import type { CustomTool } from "@mcp-rt/session";

// Words that say nothing about which tool is meant.
const STOP_WORDS = new Set(
  "a about an and are can could do does for from how i in is it like me my need of on or please show tell that the this to use want what with would you".split(
    " ",
  ),
);

/** The lower-case words of a query worth matching: letters and digits, two or more, no stop words. */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
  return [...new Set(words.filter((word) => !STOP_WORDS.has(word)))];
}

/**
 * The tools that match the words of `query`, best first: a word in the tool's
 * name or label counts three, in its description one; a word matches a prefix
 * of a word in the tool's text, so "file" finds `read_file` and "files".
 * An empty query matches every tool, in registry order.
 */
export function rankTools(tools: readonly CustomTool[], query: string): CustomTool[] {
  const words = queryWords(query);
  if (words.length === 0) return [...tools];
  const tokens = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const hits = (haystack: string[], word: string): boolean =>
    haystack.some((token) => token.startsWith(word));
  return tools
    .map((tool, index) => {
      const name = tokens(`${tool.name} ${tool.label}`);
      const description = tokens(tool.description);
      const score = words.reduce(
        (sum, word) => sum + (hits(name, word) ? 3 : 0) + (hits(description, word) ? 1 : 0),
        0,
      );
      return { tool, score, index };
    })
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.tool);
}

/** The first sentence (or line) of a description, at most 100 characters. */
export function summary(description: string): string {
  const first =
    description
      .trim()
      .split(/\n|(?<=\.)\s/)[0]
      ?.trim() ?? "";
  return first.length > 100 ? `${first.slice(0, 99)}…` : first;
}
