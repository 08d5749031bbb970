import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { manyToolsServer, slowCallServer } from "@mcp-rt/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentSession } from "../src/agent-session.js";
import { fakeTool } from "./fake-tool.js";
import { createWorld, type World } from "./helpers.js";

const require = createRequire(import.meta.url);
const program = (pkg: string): string =>
  join(dirname(require.resolve(`${pkg}/package.json`)), "dist", "index.js");

let world: World;
let session: AgentSession;

// The demo's three real servers and two fixtures, started once for every ranking below.
beforeAll(async () => {
  world = await createWorld();
  await world.write(world.userFile, {
    mcpServers: {
      everything: {
        command: process.execPath,
        args: [program("@modelcontextprotocol/server-everything"), "stdio"],
      },
      filesystem: {
        command: process.execPath,
        args: [program("@modelcontextprotocol/server-filesystem"), world.cwd],
      },
      memory: {
        command: process.execPath,
        args: [program("@modelcontextprotocol/server-memory")],
        env: { MEMORY_FILE_PATH: join(world.root, "memory.jsonl") },
      },
      many: manyToolsServer(20),
      slow: slowCallServer(),
    },
  });
  ({ session } = await world.start({ toolSearch: "on" }));
  session.registry.add(fakeTool("run_shell_command"));
  session.registry.setActive([...session.registry.active(), "run_shell_command"]);
  expect(session.mcpManager!.getServerStates().map((state) => state.status)).toEqual(
    Array(5).fill("connected"),
  );
}, 60_000);
afterAll(() => world.cleanup());

const top = (query: string, limit = 5): string[] =>
  session.toolSearch.search(query, limit).map((match) => match.name);

describe("tool search ranking on the demo servers and fixtures", () => {
  it.each([
    ["read the complete contents of a text file", "mcp_filesystem_read_text_file"],
    ["make a new folder", "mcp_filesystem_create_directory"],
    ["rename a file", "mcp_filesystem_move_file"],
    ["delete relations from the knowledge graph", "mcp_memory_delete_relations"],
    ["search the knowledge graph for nodes", "mcp_memory_search_nodes"],
    ["what is the sum of two numbers", "mcp_everything_get_sum"],
    ["print the server's environment variables", "mcp_everything_get_env"],
    ["run a slow operation that reports progress and can be cancelled", "mcp_slow_slow"],
  ])("puts the right tool first for %j", (query, tool) => {
    expect(top(query)[0]).toBe(tool);
  });

  it.each([
    ["save some text into a file", "mcp_filesystem_write_file"],
    ["show which files are in a directory", "mcp_filesystem_list_directory"],
    ["remember facts about a person", "mcp_memory_add_observations"],
    ["compress a file", "mcp_everything_gzip_file_as_resource"],
    ["run a command in the shell", "run_shell_command"],
  ])("has the right tool in the top five for %j", (query, tool) => {
    expect(top(query)).toContain(tool);
  });

  it("lets a query that names a tool exactly win: exposed name, server/tool, or the tool's own name", () => {
    expect(top("mcp_memory_read_graph")[0]).toBe("mcp_memory_read_graph");
    expect(top("memory/open_nodes")[0]).toBe("mcp_memory_open_nodes");
    expect(top("directory_tree")[0]).toBe("mcp_filesystem_directory_tree");
    expect(top("then call mcp_many_tool_7 with it")[0]).toBe("mcp_many_tool_7");
  });

  it("lets a query that names a server exactly bring that server's tools first", () => {
    const memory = session.mcpTools().filter((tool) => tool.label.startsWith("memory/")).length;
    expect(memory).toBeGreaterThan(5);
    expect(top("memory", memory).every((name) => name.startsWith("mcp_memory_"))).toBe(true);
    expect(top("everything", 3).every((name) => name.startsWith("mcp_everything_"))).toBe(true);
  });

  it("returns each match with its server, title and a one-line description, and nothing for noise", () => {
    const [match] = session.toolSearch.search("read a text file", 1);
    expect(match).toEqual({
      name: "mcp_filesystem_read_text_file",
      server: "filesystem",
      title: "Read Text File",
      summary: expect.stringMatching(/^Read the complete contents of a file/),
    });
    expect(match!.summary).not.toContain("\n");
    expect(top("the of and")).toEqual([]);
    expect(top("")).toEqual([]);
  });
});
