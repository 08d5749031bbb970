import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { realServers } from "./real-servers.js";
import type { StdioServer, ToolCallSpec } from "./tasks.js";

const NOTES = "Notes of the bench.\nThe filesystem server reads this file.\n";
const ENTITY = { type: "entity", name: "mcp-rt", entityType: "project", observations: ["an MCP runtime"] };

/**
 * Writes what the calls of {@link realServerCalls} read in `dir` (the
 * filesystem server's root and the memory server's folder, as
 * `realServers(dir)` starts them): a text file and a memory graph of one entity.
 */
export async function prepareRealServerDir(dir: string): Promise<void> {
  await writeFile(join(dir, "notes.txt"), NOTES);
  await writeFile(join(dir, "memory.jsonl"), `${JSON.stringify(ENTITY)}\n`);
}

/**
 * A project folder `project` in `dir`, prepared as {@link prepareRealServerDir}
 * says, and the real servers of `names` started in it, as the bench's workers
 * take them.
 */
export async function realServerProject(
  dir: string,
  names: readonly string[],
): Promise<{ cwd: string; servers: Record<string, StdioServer> }> {
  const cwd = join(dir, "project");
  await mkdir(cwd);
  await prepareRealServerDir(cwd);
  const every = realServers(cwd);
  const servers: Record<string, StdioServer> = Object.fromEntries(
    names.map((name) => {
      const config = every[name];
      if (!config) throw new Error(`no real server named "${name}"`);
      return [
        name,
        { command: config.command, args: config.args ?? [], ...(config.env ? { env: config.env } : {}) },
      ];
    }),
  );
  return { cwd, servers };
}

/**
 * Calls of the real servers that answer offline, at once and always the same
 * way (the browser servers, Notion and Context7 need a browser, the network
 * or a key for theirs): two per server where the server has two such tools.
 */
export function realServerCalls(dir: string): ToolCallSpec[] {
  return [
    {
      server: "everything",
      tool: "echo",
      arguments: { message: "hello from the bench" },
      expect: "Echo: hello from the bench",
    },
    {
      server: "everything",
      tool: "get-sum",
      arguments: { a: 17, b: 25 },
      expect: "The sum of 17 and 25 is 42.",
    },
    {
      server: "filesystem",
      tool: "read_text_file",
      arguments: { path: join(dir, "notes.txt") },
      expect: NOTES,
    },
    { server: "filesystem", tool: "list_directory", arguments: { path: dir }, expect: "[FILE] notes.txt" },
    { server: "memory", tool: "read_graph", arguments: {}, expect: '"an MCP runtime"' },
    {
      server: "thinking",
      tool: "sequentialthinking",
      arguments: {
        thought: "Check the answer.",
        thoughtNumber: 1,
        totalThoughts: 1,
        nextThoughtNeeded: false,
      },
      expect: '"nextThoughtNeeded": false',
    },
  ];
}
