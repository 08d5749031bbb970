#!/usr/bin/env node
/**
 * Writes what real MCP servers from npm tell a model (their tools, prompts,
 * resources and instructions, as mcp-rt lists them) into
 * `packages/testing/corpus/real-servers/`, for the poisoning check's clean
 * corpus and the drift measurement (`drift-noise.ts`):
 *
 *   node bench/dist/capture-definitions.js --modules <node_modules> --out <dir> [--only id,…]
 *
 * `--modules` is where the packages are installed (default: the bench's
 * own). Servers whose package is not there are skipped. Each runs with this
 * Node binary, offline, with stand-in API keys (they list without calling out).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  closeConnection,
  connectToServer,
  listPrompts,
  listResources,
  listResourceTemplates,
  listTools,
} from "@mcp-rt/client";
import type { MCPStdioServerConfig } from "@mcp-rt/config";

/** One real server: its package, the program in it, and what it is started with. */
interface RealServer {
  id: string;
  pkg: string;
  program: string;
  args?: (dir: string) => string[];
  env?: (dir: string) => Record<string, string>;
  /** Why it is in the corpus, when it is not obvious. */
  note?: string;
}

/** Stand-in keys: these servers list their tools without using them. */
const KEY = "mcp-rt-corpus-not-a-real-key";

const SERVERS: readonly RealServer[] = [
  {
    id: "everything",
    pkg: "@modelcontextprotocol/server-everything",
    program: "dist/index.js",
    args: () => ["stdio"],
  },
  {
    id: "filesystem",
    pkg: "@modelcontextprotocol/server-filesystem",
    program: "dist/index.js",
    args: (dir) => [dir],
  },
  {
    id: "memory",
    pkg: "@modelcontextprotocol/server-memory",
    program: "dist/index.js",
    env: (dir) => ({ MEMORY_FILE_PATH: join(dir, "memory.jsonl") }),
  },
  {
    id: "sequential-thinking",
    pkg: "@modelcontextprotocol/server-sequential-thinking",
    program: "dist/index.js",
  },
  { id: "playwright", pkg: "@playwright/mcp", program: "cli.js", args: () => ["--headless"] },
  {
    id: "chrome-devtools",
    pkg: "chrome-devtools-mcp",
    program: "build/src/bin/chrome-devtools-mcp.js",
    args: () => ["--headless"],
  },
  {
    id: "notion",
    pkg: "@notionhq/notion-mcp-server",
    program: "bin/cli.mjs",
    env: () => ({ NOTION_TOKEN: KEY }),
  },
  { id: "context7", pkg: "@upstash/context7-mcp", program: "dist/index.js" },
  {
    id: "amap-maps",
    pkg: "@amap/amap-maps-mcp-server",
    program: "build/index.js",
    env: () => ({ AMAP_MAPS_API_KEY: KEY }),
    note: "descriptions in Chinese",
  },
  {
    id: "baidu-map",
    pkg: "@baidumap/mcp-server-baidu-map",
    program: "dist/index.js",
    env: () => ({ BAIDU_MAP_API_KEY: KEY }),
    note: "descriptions in Chinese",
  },
  {
    id: "howtocook",
    pkg: "howtocook-mcp",
    program: "build/index.js",
    note: "descriptions in Chinese, with emoji",
  },
  {
    id: "tosspayments",
    pkg: "@tosspayments/integration-guide-mcp",
    program: "dist/server.js",
    note: "descriptions in Korean",
  },
  { id: "mermaid", pkg: "mcp-mermaid", program: "build/index.js" },
  { id: "antv-chart", pkg: "@antv/mcp-server-chart", program: "build/index.js" },
  { id: "tavily", pkg: "tavily-mcp", program: "build/index.js", env: () => ({ TAVILY_API_KEY: KEY }) },
  {
    id: "brave-search",
    pkg: "@brave/brave-search-mcp-server",
    program: "dist/index.js",
    env: () => ({ BRAVE_API_KEY: KEY }),
  },
];

async function capture(server: RealServer, modules: string, dir: string): Promise<object | undefined> {
  const root = join(modules, server.pkg);
  let version: string;
  try {
    version = (JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return undefined;
  }
  const config: MCPStdioServerConfig = {
    command: process.execPath,
    args: [join(root, server.program), ...(server.args?.(dir) ?? [])],
    ...(server.env ? { env: server.env(dir) } : {}),
  };
  const connection = await connectToServer({ name: server.id, config, cwd: dir });
  try {
    const tools = await listTools(connection);
    const has = connection.capabilities;
    const none = async () => [];
    const [prompts, resources, resourceTemplates] = await Promise.all([
      has.prompts ? listPrompts(connection).catch(none) : none(),
      has.resources ? listResources(connection).catch(none) : none(),
      has.resources ? listResourceTemplates(connection).catch(none) : none(),
    ]);
    return {
      package: server.pkg,
      version,
      ...(server.note ? { note: server.note } : {}),
      serverInfo: connection.serverInfo,
      ...(connection.instructions ? { instructions: connection.instructions } : {}),
      tools,
      prompts,
      resources,
      resourceTemplates,
    };
  } finally {
    await closeConnection(connection);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      modules: { type: "string" },
      out: { type: "string" },
      only: { type: "string" },
      suffix: { type: "string" },
    },
  });
  const here = dirname(fileURLToPath(import.meta.url));
  const modules = resolve(values.modules ?? join(here, "..", "node_modules"));
  const out = resolve(values.out ?? join(here, "..", "..", "packages", "testing", "corpus", "real-servers"));
  const only = values.only?.split(",");
  await mkdir(out, { recursive: true });
  const dir = await mkdtemp(join(tmpdir(), "mcp-rt-capture-"));
  try {
    for (const server of SERVERS) {
      if (only && !only.includes(server.id)) continue;
      try {
        const captured = await capture(server, modules, dir);
        if (!captured) continue;
        const file = join(out, `${server.id}${values.suffix ?? ""}.json`);
        await writeFile(file, `${JSON.stringify(captured, null, 2)}\n`);
        process.stdout.write(`${server.id}: ${file}\n`);
      } catch (error) {
        process.stderr.write(`${server.id}: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
