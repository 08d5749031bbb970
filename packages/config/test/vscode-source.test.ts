import { createVsCodeSource } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

describe("VS Code source", () => {
  it("reads JSONC `servers` with comments and trailing commas, types, envFile and cwd", async () => {
    const tree = await fixture();
    await tree.writeProject(".env", "API_KEY=from-env-file\n");
    const file = await tree.writeProject(
      ".vscode/mcp.json",
      `{
  // Secrets are prompted for
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "API key", "password": true },
  ],
  "servers": {
    /* a local server */
    "memory": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-memory"],
      "envFile": ".env",
      "cwd": "/srv",
    },
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp", "headers": { "X-Id": "1" } },
    "legacy": { "type": "sse", "url": "https://legacy.example.com/sse" },
  },
  // VS Code does not read this key
  "mcpServers": { "ignored": { "command": "nope" } },
}`,
    );
    const result = await tree.load({ sources: [createVsCodeSource()] });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      memory: {
        type: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-memory"],
        env: { API_KEY: "from-env-file" },
        cwd: "/srv",
      },
      github: { type: "http", url: "https://api.githubcopilot.com/mcp", headers: { "X-Id": "1" } },
      legacy: { type: "sse", url: "https://legacy.example.com/sse" },
    });
    expect(result.sources.memory).toEqual({
      provider: "vscode",
      providerName: "VS Code",
      path: file,
      level: "project",
    });
  });

  it.each([
    ["linux", ".config/Code/User/mcp.json"],
    ["darwin", "Library/Application Support/Code/User/mcp.json"],
    ["win32", "AppData/Roaming/Code/User/mcp.json"],
  ] as const)(
    "reads the user profile's mcp.json on %s, below the workspace file",
    async (platform, relative) => {
      const tree = await fixture();
      const userFile = await tree.writeHome(relative, {
        servers: { shared: { type: "stdio", command: "user" }, mine: { type: "stdio", command: "mine" } },
      });
      await tree.writeProject(".vscode/mcp.json", {
        servers: { shared: { type: "stdio", command: "workspace" } },
      });
      const result = await tree.load({ platform, sources: [createVsCodeSource()] });
      expect(result.configs).toEqual({
        shared: { type: "stdio", command: "workspace" },
        mine: { type: "stdio", command: "mine" },
      });
      expect(result.sources.mine?.path).toBe(userFile);
    },
  );
});
