import { lazy } from "@mcp-rt/config/util";
import type { CustomTool } from "@mcp-rt/manager";
import MiniSearch from "minisearch";
import { synonymTable } from "./tool-synonyms.js";

/** What the index knows of one tool: where it comes from, and how to name it. */
export interface IndexedTool {
  tool: CustomTool;
  /** The server's config name (`""` for one of the agent's own tools). */
  server: string;
  /** The tool's title, when it has one. */
  title?: string | undefined;
}

/** One hit of {@link ToolIndex.search}: the tool and its score (higher is better). */
export interface ToolHit extends IndexedTool {
  score: number;
}

interface Doc {
  id: number;
  name: string;
  title: string;
  description: string;
  params: string;
  server: string;
}

// Words that say nothing about which tool is meant.
const STOP_WORDS = new Set(
  (
    "a about all an and any are as at be by can could do does for from get give how i if in into is it its " +
    "let like me my need of on one or our please show some tell than that the their them then there these " +
    "this those to up use using want we what when which with would you your"
  ).split(" "),
);

// Name fields weigh most: a task usually says what a tool's name says.
const BOOST = { name: 3, title: 2, server: 1.5, description: 1, params: 0.6 };

/** Lower-case words of `text`, split on `_`, `-`, punctuation and camelCase. */
export function splitWords(text: string): string[] {
  const spaced = text
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2");
  return spaced.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * A light suffix stemmer, the same for tools and queries, so that "files",
 * "navigating" and "deleted" meet "file", "navigate" and "delete".
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (/(?:ss|sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  else if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  return w.length > 3 && w.endsWith("e") ? w.slice(0, -1) : w;
}

function processTerm(term: string): string | null {
  return STOP_WORDS.has(term) ? null : stem(term);
}

// Built by the first search, not when the module loads (a few ms of every start otherwise).
const synonyms = lazy(() => synonymTable(stem));
// A word the query says weighs more than a word it only implies.
const SYNONYM_WEIGHT = 0.5;

/** A query word, stemmed, with the words of its synonym groups. */
function expandTerm(term: string): string[] | null {
  const word = processTerm(term);
  return word === null ? null : [word, ...(synonyms().get(word) ?? [])];
}

/** Parameter names, descriptions and enum values of a JSON schema, two levels deep. */
function parameterText(schema: unknown, depth = 0): string {
  if (typeof schema !== "object" || schema === null || depth > 2) return "";
  const node = schema as { properties?: unknown; items?: unknown; description?: unknown; enum?: unknown };
  const parts: string[] = [];
  if (depth > 0 && typeof node.description === "string") parts.push(node.description);
  if (Array.isArray(node.enum)) parts.push(node.enum.filter((value) => typeof value === "string").join(" "));
  if (typeof node.properties === "object" && node.properties !== null) {
    for (const [key, value] of Object.entries(node.properties)) {
      parts.push(key, parameterText(value, depth + 1));
    }
  }
  if (node.items !== undefined) parts.push(parameterText(node.items, depth + 1));
  return parts.filter(Boolean).join(" ");
}

/** The tool's own name: after `<server>/` in its label for an MCP tool, else its exposed name. */
function ownName(entry: IndexedTool): string {
  const { label, name } = entry.tool;
  return entry.server !== "" && label.startsWith(`${entry.server}/`)
    ? label.slice(entry.server.length + 1)
    : name;
}

/**
 * BM25 ranking (minisearch) over a fixed set of tools: their own name, title,
 * description, parameter names and descriptions, and server name, each split
 * into words (`_`, `-`, camelCase) and lightly stemmed; a query word also
 * finds its synonyms (`tool-synonyms.ts`), at a lower weight. A query that is
 * exactly a tool's name (exposed, `server/tool`, or its own), or that names a
 * tool by its exposed name among other words, puts that tool first; a query
 * that is exactly a server's name puts that server's tools first.
 */
export class ToolIndex {
  readonly #entries: readonly IndexedTool[];
  readonly #search: MiniSearch<Doc>;
  readonly #deprecated: Set<number>;

  constructor(entries: readonly IndexedTool[]) {
    this.#entries = entries;
    this.#deprecated = new Set(
      entries.flatMap((entry, id) =>
        /\bdeprecated\b/i.test(`${entry.title ?? ""} ${entry.tool.description}`) ? [id] : [],
      ),
    );
    this.#search = new MiniSearch<Doc>({
      fields: ["name", "title", "description", "params", "server"],
      tokenize: splitWords,
      processTerm,
      searchOptions: {
        boost: BOOST,
        // Prefixes find longer words ("nav" → "navigat"); fuzzy matching cost time and found nothing more here.
        prefix: (term) => term.length >= 3,
        weights: { prefix: 0.4, fuzzy: 0 },
      },
    });
    this.#search.addAll(
      entries.map((entry, id) => ({
        id,
        name: ownName(entry),
        title: entry.title ?? "",
        description: entry.tool.description,
        params: parameterText(entry.tool.parameters),
        server: entry.server,
      })),
    );
  }

  /** The tools indexed, in the order given. */
  get entries(): readonly IndexedTool[] {
    return this.#entries;
  }

  /** The best `limit` tools for `query`, best first; an empty query matches nothing. */
  search(query: string, limit: number = Number.POSITIVE_INFINITY): ToolHit[] {
    const exact = this.#exact(query);
    const said = new Set(splitWords(query).map(processTerm));
    const ranked = this.#search
      .search(query, {
        processTerm: expandTerm,
        // A tool that says it is deprecated yields to its replacement.
        boostDocument: (id) => (this.#deprecated.has(id as number) ? 0.5 : 1),
        boostTerm: (term) => (said.has(term) ? 1 : SYNONYM_WEIGHT),
      })
      .map((result) => ({ ...this.#entries[result.id as number]!, score: result.score }));
    const first = ranked.filter((hit) => exact.has(hit.tool));
    const named = this.#entries
      .filter((entry) => exact.has(entry.tool) && !first.some((hit) => hit.tool === entry.tool))
      .map((entry) => ({ ...entry, score: 0 }));
    const rest = ranked.filter((hit) => !exact.has(hit.tool));
    return [...first, ...named, ...rest].slice(0, limit);
  }

  /** The tools a query names exactly (see the class comment). */
  #exact(query: string): Set<CustomTool> {
    const whole = query.trim().toLowerCase();
    const words = new Set(whole.split(/[\s,;]+/).filter(Boolean));
    const found = new Set<CustomTool>();
    if (whole === "") return found;
    for (const entry of this.#entries) {
      const { name, label } = entry.tool;
      const names = [name.toLowerCase(), label.toLowerCase()];
      if (
        names.includes(whole) ||
        ownName(entry).toLowerCase() === whole ||
        entry.server.toLowerCase() === whole ||
        names.some((candidate) => words.has(candidate))
      ) {
        found.add(entry.tool);
      }
    }
    return found;
  }
}
