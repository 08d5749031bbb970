import { createGeminiSource } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

describe("Gemini CLI source", () => {
  it("maps httpUrl, url, timeout, tool lists and oauth; comments are allowed", async () => {
    const tree = await fixture();
    await tree.writeHome(
      ".gemini/settings.json",
      `{
  // Gemini settings allow comments
  "theme": "Dracula",
  "mcpServers": {
    "stream": { "httpUrl": "https://api.example.com/mcp", "headers": { "Authorization": "Bearer t" }, "timeout": 5000 },
    "events": { "url": "https://api.example.com/sse", "trust": true },
    "both": { "httpUrl": "https://a.example.com/mcp", "url": "https://b.example.com/sse" },
    "typed": { "url": "https://c.example.com/mcp", "type": "http" },
    "py": {
      "command": "python", "args": ["-m", "srv"], "cwd": "./srv", "env": { "K": "v" },
      "includeTools": ["safe"], "excludeTools": ["rm"], "description": "ignored"
    },
    "gcp": { "httpUrl": "https://gcp.example.com/mcp", "oauth": { "enabled": true, "clientId": "cid", "scopes": ["a", "b"] } }
  }
}`,
    );
    const result = await tree.load({ sources: [createGeminiSource()] });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      stream: {
        type: "http",
        url: "https://api.example.com/mcp",
        headers: { Authorization: "Bearer t" },
        timeout: 5000,
        toolTimeout: 5000,
      },
      events: { type: "sse", url: "https://api.example.com/sse" },
      both: { type: "http", url: "https://a.example.com/mcp" },
      typed: { type: "http", url: "https://c.example.com/mcp" },
      py: {
        command: "python",
        args: ["-m", "srv"],
        cwd: "./srv",
        env: { K: "v" },
        includeTools: ["safe"],
        excludeTools: ["rm"],
      },
      gcp: {
        type: "http",
        url: "https://gcp.example.com/mcp",
        auth: { type: "oauth", clientId: "cid", scope: "a b" },
      },
    });
  });

  it("ranks .gemini/settings.json above the user's and applies mcp.excluded / mcp.allowed", async () => {
    const tree = await fixture();
    await tree.writeHome(".gemini/settings.json", {
      mcp: { excluded: ["old"] },
      mcpServers: { a: { command: "user-a" }, old: { command: "old" }, b: { command: "b" } },
    });
    const projectFile = await tree.writeProject(".gemini/settings.json", {
      mcpServers: { a: { command: "project-a" } },
    });
    const result = await tree.load();
    expect(result.configs).toEqual({ a: { command: "project-a" }, b: { command: "b" } });
    expect(result.sources.a?.path).toBe(projectFile);
    expect(result.disabled.map((entry) => entry.name)).toEqual(["old"]);

    await tree.writeProject(".gemini/settings.json", { mcp: { allowed: ["b"] }, mcpServers: {} });
    const allowed = await tree.load();
    expect(Object.keys(allowed.configs)).toEqual(["b"]);
    expect(allowed.disabled.map((entry) => entry.name).sort()).toEqual(["a", "old"]);
  });

  it("points a bad httpUrl message at the field Gemini users write", async () => {
    const tree = await fixture();
    await tree.writeHome(".gemini/settings.json", { mcpServers: { s: { httpUrl: "ftp://x" } } });
    expect((await tree.load()).errors[0]?.message).toBe(
      'servers.s.url: must be an http:// or https:// URL, e.g. "https://example.com/mcp", got "ftp://x" (written as httpUrl)',
    );
  });
});
