import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { MCPStdioServerConfig } from "@mcp-rt/manager";

const require = createRequire(import.meta.url);

/** A program inside an installed package (these servers ship a bin, no `exports`). */
function program(pkg: string, path: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), path);
}

/** The npm packages of {@link realServers}, by server name, for the report. */
export const REAL_SERVER_PACKAGES: Readonly<Record<string, string>> = {
  everything: "@modelcontextprotocol/server-everything",
  filesystem: "@modelcontextprotocol/server-filesystem",
  memory: "@modelcontextprotocol/server-memory",
  thinking: "@modelcontextprotocol/server-sequential-thinking",
  playwright: "@playwright/mcp",
  devtools: "chrome-devtools-mcp",
  notion: "@notionhq/notion-mcp-server",
  context7: "@upstash/context7-mcp",
};

/**
 * How many tools each server of {@link realServers} lists to a client that
 * declares no capabilities (the raw SDK's and LangChain's). A new version that
 * lists others makes the runs fail with the count it gave: update it here.
 */
export const REAL_SERVER_TOOLS: Readonly<Record<string, number>> = {
  everything: 13,
  filesystem: 14,
  memory: 9,
  thinking: 1,
  playwright: 25,
  devtools: 32,
  notion: 24,
  context7: 2,
};

/** Tools a server lists only to a client that declares `roots`, as mcp-rt's does (`everything`'s `get-roots-list`). */
const ROOTS_TOOLS: Readonly<Record<string, number>> = { everything: 1 };

/** Servers that offer resources: with one of them, an `AgentSession` adds `mcp_list_resources` and `mcp_read_resource`. */
const WITH_RESOURCES: ReadonlySet<string> = new Set(["everything", "memory"]);

/** The tools the servers of `names` list to `client` (without the tools an `AgentSession` adds). */
export function listedRealTools(names: readonly string[], client: "mcp-rt" | "sdk"): number {
  return names.reduce(
    (sum, name) =>
      sum + (REAL_SERVER_TOOLS[name] ?? 0) + (client === "mcp-rt" ? (ROOTS_TOOLS[name] ?? 0) : 0),
    0,
  );
}

/**
 * The tools in hand once every server of `names` is listed: the raw SDK and
 * LangChain get {@link REAL_SERVER_TOOLS}; mcp-rt's client declares `roots`
 * (one tool more from `everything`) and its session adds its two resource
 * tools while some server has resources.
 */
export function expectedRealTools(names: readonly string[], client: "mcp-rt" | "sdk"): number {
  const listed = listedRealTools(names, client);
  const resourceTools = client === "mcp-rt" && names.some((name) => WITH_RESOURCES.has(name)) ? 2 : 0;
  return listed + resourceTools;
}

/**
 * Eight real MCP servers from npm, installed as devDependencies of the bench,
 * each run with this Node binary. All of them list their tools without
 * network, without a browser and without an API key (the browser servers
 * start one only when a tool is called; Notion and Context7 need their keys
 * only for calls). `dir` is the filesystem server's root and holds the
 * memory server's file.
 */
export function realServers(dir: string): Record<string, MCPStdioServerConfig> {
  const node = (pkg: string, path: string, ...args: string[]): MCPStdioServerConfig => ({
    command: process.execPath,
    args: [program(pkg, path), ...args],
  });
  return {
    everything: node("@modelcontextprotocol/server-everything", "dist/index.js", "stdio"),
    filesystem: node("@modelcontextprotocol/server-filesystem", "dist/index.js", dir),
    memory: {
      ...node("@modelcontextprotocol/server-memory", "dist/index.js"),
      env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") },
    },
    thinking: node("@modelcontextprotocol/server-sequential-thinking", "dist/index.js"),
    playwright: node("@playwright/mcp", "cli.js", "--headless"),
    devtools: node("chrome-devtools-mcp", "build/src/bin/chrome-devtools-mcp.js", "--headless"),
    notion: node("@notionhq/notion-mcp-server", "bin/cli.mjs"),
    context7: node("@upstash/context7-mcp", "dist/index.js"),
  };
}
