import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

// mcp-rt's own switch, written in every provider's file: `off` must never start.
const json = (key: string) =>
  JSON.stringify({ [key]: { off: { command: "off-server", enabled: false }, on: { command: "on-server" } } });

const providers: Array<{ provider: string; file: string; content: string }> = [
  { provider: "mcp-rt", file: ".mcp-rt/mcp.json", content: json("mcpServers") },
  { provider: "claude-code", file: ".claude.json", content: json("mcpServers") },
  {
    provider: "claude-desktop",
    file: ".config/Claude/claude_desktop_config.json",
    content: json("mcpServers"),
  },
  {
    provider: "codex",
    file: ".codex/config.toml",
    content:
      '[mcp_servers.off]\ncommand = "off-server"\nenabled = false\n\n[mcp_servers.on]\ncommand = "on-server"\n',
  },
  { provider: "antigravity", file: ".gemini/config/mcp_config.json", content: json("mcpServers") },
  { provider: "antigravity", file: ".gemini/antigravity/mcp_config.json", content: json("mcpServers") },
  { provider: "gemini", file: ".gemini/settings.json", content: json("mcpServers") },
  { provider: "cursor", file: ".cursor/mcp.json", content: json("mcpServers") },
  { provider: "windsurf", file: ".codeium/windsurf/mcp_config.json", content: json("mcpServers") },
  { provider: "vscode", file: ".config/Code/User/mcp.json", content: json("servers") },
];

describe("enabled: false in every provider's file", () => {
  for (const { provider, file, content } of providers) {
    it(`${provider} (${file}): the server is disabled, the other one loads`, async () => {
      const tree = await fixture();
      await tree.writeHome(file, content);
      const result = await tree.load();
      expect(Object.keys(result.configs)).toEqual(["on"]);
      expect(result.sources.on?.provider).toBe(provider);
      expect(result.disabled).toEqual([
        { name: "off", source: expect.objectContaining({ provider, level: "user" }) },
      ]);
    });
  }
});
