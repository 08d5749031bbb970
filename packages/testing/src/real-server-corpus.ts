import { readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  MCPPromptDefinition,
  MCPResourceDefinition,
  MCPResourceTemplateDefinition,
  MCPToolDefinition,
} from "@mcp-rt/config";

/** What one real server from npm tells a model, as mcp-rt listed it (`bench/src/capture-definitions.ts`). */
export interface RealServerDefinitions {
  /** The corpus file's name: `filesystem`, `amap-maps`, … */
  id: string;
  /** Its npm package and the version listed. */
  package: string;
  version: string;
  /** Why it is in the corpus, when not obvious (e.g. "descriptions in Chinese"). */
  note?: string;
  serverInfo: { name: string; version: string };
  instructions?: string;
  tools: MCPToolDefinition[];
  prompts: MCPPromptDefinition[];
  resources: MCPResourceDefinition[];
  resourceTemplates: MCPResourceTemplateDefinition[];
}

const corpus = (folder: string): string => fileURLToPath(new URL(`../corpus/${folder}/`, import.meta.url));

function readCorpusFile(path: string): RealServerDefinitions {
  return {
    id: basename(path, ".json"),
    ...(JSON.parse(readFileSync(path, "utf8")) as Omit<RealServerDefinitions, "id">),
  };
}

/**
 * The definitions of real MCP servers from npm (tools, prompts, resources,
 * instructions; descriptions in English, Chinese and Korean, with emoji),
 * listed offline: the clean corpus, on which the poisoning check must raise
 * no hold.
 */
export function realServerDefinitions(): RealServerDefinitions[] {
  const folder = corpus("real-servers");
  return readdirSync(folder)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => readCorpusFile(`${folder}${file}`));
}

/**
 * Two real versions of one server (`@playwright/mcp` 0.0.83, then 0.0.86):
 * what an upgrade changes in what the model is told, to measure the noise of
 * drift (what a user is asked when the server updates itself).
 */
export function driftCorpus(): { before: RealServerDefinitions; after: RealServerDefinitions } {
  const folder = corpus("drift");
  return {
    before: readCorpusFile(`${folder}playwright-mcp-0.0.83.json`),
    after: readCorpusFile(`${folder}playwright-mcp-0.0.86.json`),
  };
}
