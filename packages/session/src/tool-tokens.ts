import { createRequire } from "node:module";
import type { CustomTool } from "@mcp-rt/manager";

/**
 * A tool as an OpenAI-compatible chat completions request carries it in its
 * `tools` array (the shape most model APIs take, or map from).
 */
export interface ModelToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: object };
}

/** What the active MCP tools cost the model, in all and per server (`session.toolTokens()`). */
export interface ToolTokens {
  /** Tokens of every active MCP tool's definition. */
  total: number;
  /** Per server config name: its active tools and their tokens. */
  servers: Record<string, { tools: number; tokens: number }>;
}

/**
 * The definition of `tool` exactly as a model request sends it. The agent's
 * OpenAI-compatible model builds its `tools` array with this, and
 * {@link countToolTokens} counts this, so what is counted is what is sent.
 */
export function modelToolDefinition(tool: CustomTool): ModelToolDefinition {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

type CountTokens = (text: string) => number;

// The o200k tables take about 0.4 s to load: only the first count pays it,
// never an agent that does not count.
let countText: CountTokens | undefined;
function tokenizer(): CountTokens {
  if (!countText) {
    const require = createRequire(import.meta.url);
    const o200k =
      require("gpt-tokenizer/encoding/o200k_base") as typeof import("gpt-tokenizer/encoding/o200k_base");
    countText = (text) => o200k.countTokens(text);
  }
  return countText;
}

interface Counted {
  name: string;
  description: string;
  parameters: object;
  tokens: number;
}

// Per tool object, checked against the fields that are sent: an unchanged tool is counted once.
const counts = new WeakMap<CustomTool, Counted>();

/**
 * Tokens of one tool's definition as the model sees it: the JSON text of
 * {@link modelToolDefinition} (name, description, JSON schema as sent),
 * counted with the o200k tokenizer of OpenAI's current models. Cached per
 * tool object for as long as its name, description and schema stay the same.
 */
export function countToolTokens(tool: CustomTool): number {
  const cached = counts.get(tool);
  if (
    cached &&
    cached.name === tool.name &&
    cached.description === tool.description &&
    cached.parameters === tool.parameters
  ) {
    return cached.tokens;
  }
  const tokens = tokenizer()(JSON.stringify(modelToolDefinition(tool)));
  counts.set(tool, { name: tool.name, description: tool.description, parameters: tool.parameters, tokens });
  return tokens;
}

/** Sums the tokens of `tools`, per server (`serverOf`) and in all. */
export function sumToolTokens(
  tools: readonly CustomTool[],
  serverOf: (tool: CustomTool) => string,
): ToolTokens {
  let total = 0;
  const servers = new Map<string, { tools: number; tokens: number }>();
  for (const tool of tools) {
    const tokens = countToolTokens(tool);
    const server = serverOf(tool);
    const entry = servers.get(server) ?? { tools: 0, tokens: 0 };
    entry.tools += 1;
    entry.tokens += tokens;
    servers.set(server, entry);
    total += tokens;
  }
  // fromEntries defines own properties: a server named "__proto__" stays a plain key.
  return { total, servers: Object.fromEntries(servers) };
}

/** A token count as a person reads it: `~850`, `~9.8k`, `~142k`. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return `~${tokens}`;
  const thousands = tokens / 1000;
  return `~${thousands < 100 ? thousands.toFixed(1).replace(/\.0$/, "") : Math.round(thousands)}k`;
}
