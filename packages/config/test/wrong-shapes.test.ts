import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

describe("wrong shapes", () => {
  it.each([
    [
      "a top-level array",
      ".cursor/mcp.json",
      [{ command: "x" }],
      'expected an object at the top level, got [{"command":"x"}]',
    ],
    [
      "a top-level string",
      ".mcp-rt/mcp.json",
      "just text",
      'expected an object at the top level, got "just text"',
    ],
    [
      "mcpServers as an array",
      ".claude.json",
      { mcpServers: [{ name: "a", command: "x" }] },
      '"mcpServers" must be an object mapping server names to their configs, got [{"name":"a","command":"x"}]',
    ],
    [
      "VS Code servers as a string",
      ".config/Code/User/mcp.json",
      { servers: "none" },
      '"servers" must be an object mapping server names to their configs, got "none"',
    ],
    [
      "Codex mcp_servers as a number",
      ".codex/config.toml",
      "mcp_servers = 5\n",
      '"mcp_servers" must be an object mapping server names to their configs, got 5',
    ],
  ])("reports %s against the file", async (_label, relative, content, message) => {
    const tree = await fixture();
    const file = await tree.writeHome(
      relative,
      typeof content === "string" && !relative.endsWith(".toml") ? JSON.stringify(content) : content,
    );
    const result = await tree.load();
    expect(result.errors).toEqual([{ path: file, code: "CONFIG_INVALID", message: `${file}: ${message}` }]);
  });

  it("names the local-scope path in Claude's file", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".claude.json", {
      projects: { [tree.project]: { mcpServers: "oops" } },
    });
    expect((await tree.load()).errors[0]?.message).toBe(
      `${file}: "projects[${JSON.stringify(tree.project)}].mcpServers" must be an object mapping server names to their configs, got "oops"`,
    );
  });

  it("reports an entry that is not an object under its own name, and loads its neighbours", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".cursor/mcp.json", {
      mcpServers: { text: "npx server", list: ["npx"], nothing: null, fine: { command: "npx" } },
    });
    const result = await tree.load();
    expect(result.configs).toEqual({ fine: { command: "npx" } });
    expect(result.errors.map((issue) => [issue.path, issue.server, issue.code])).toEqual([
      [file, "text", "CONFIG_INVALID"],
      [file, "list", "CONFIG_INVALID"],
      [file, "nothing", "CONFIG_INVALID"],
    ]);
    expect(result.errors[2]?.message).toBe(
      'servers.nothing: must be an object with "command" (a local server) or "url" (a remote server), got null',
    );
  });

  it("reports every invalid entry with the file and server name", async () => {
    const tree = await fixture();
    const file = await tree.writeProject(".mcp-rt/mcp.json", {
      mcpServers: { both: { command: "x", url: "https://x.dev" }, slow: { command: "x", timeout: -5 } },
    });
    expect((await tree.load()).errors).toEqual([
      {
        path: file,
        server: "both",
        code: "CONFIG_INVALID",
        message:
          'servers.both: has both "command" and "url"; keep "command" to start a local server, or "url" to reach a remote one',
      },
      {
        path: file,
        server: "slow",
        code: "CONFIG_INVALID",
        message: "servers.slow.timeout: must be a positive whole number of milliseconds, got -5",
      },
    ]);
  });
});
