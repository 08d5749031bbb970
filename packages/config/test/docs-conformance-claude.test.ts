// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are what these tests are about
import { describe, expect, it } from "vitest";
import { loadAsDocumented, useFixtureTrees } from "./helpers.js";

// Each file is written the way that client's own MCP documentation shows it
// (field names, placeholder forms, comments), and the loaded config is
// compared with what the documentation says the entry means.

const fixture = useFixtureTrees();

describe("files written as each client's documentation shows them", () => {
  it("Claude Code: ~/.claude.json user and local scope, .mcp.json with ${VAR} and ${VAR:-default}", async () => {
    const tree = await fixture();
    await tree.writeHome(".claude.json", {
      numStartups: 4,
      mcpServers: {
        airtable: { type: "stdio", command: "npx", args: ["-y", "airtable-mcp-server"], env: {} },
      },
      projects: {
        [tree.project]: {
          mcpServers: { stripe: { type: "http", url: "https://mcp.stripe.com" } },
          disabledMcpjsonServers: ["declined"],
        },
      },
    });
    await tree.writeProject(".mcp.json", {
      mcpServers: {
        "api-server": {
          type: "http",
          url: "${API_BASE_URL:-https://api.example.com}/mcp",
          headers: { Authorization: "Bearer ${API_KEY}" },
        },
        declined: { command: "npx", args: ["x"] },
        local: { command: "node", args: ["${CLAUDE_PROJECT_DIR}/tools/mcp.js"] },
      },
    });
    const result = await loadAsDocumented(tree);
    expect(result.errors).toEqual([]);
    expect(result.configs.airtable).toEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", "airtable-mcp-server"],
      env: {},
    });
    expect(result.configs.stripe).toEqual({ type: "http", url: "https://mcp.stripe.com" });
    expect(result.configs["api-server"]).toEqual({
      type: "http",
      url: "https://api.example.com/mcp",
      headers: { Authorization: "Bearer k-api" },
    });
    expect(result.configs.local).toEqual({ command: "node", args: [`${tree.project}/tools/mcp.js`] });
    expect(result.disabled.map((entry) => entry.name)).toEqual(["declined"]);
  });

  it("Claude Desktop: claude_desktop_config.json in ~/.config/Claude on Linux", async () => {
    const tree = await fixture();
    await tree.writeHome(".config/Claude/claude_desktop_config.json", {
      mcpServers: {
        filesystem: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop"],
        },
      },
    });
    const result = await loadAsDocumented(tree);
    expect(result.configs.filesystem).toEqual({
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop"],
    });
    expect(result.sources.filesystem).toMatchObject({ provider: "claude-desktop", level: "user" });
  });
});
