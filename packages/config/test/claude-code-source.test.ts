import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createClaudeCodeSource, loadAllMCPConfigs } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

describe("Claude Code source", () => {
  it("maps type/url/headers/oauth and ranks local scope over .mcp.json over user scope", async () => {
    const tree = await fixture();
    const claudeJson = await tree.writeHome(".claude.json", {
      numStartups: 12,
      mcpServers: {
        shared: { type: "stdio", command: "user-scope" },
        "user-only": { type: "sse", url: "https://sse.example.com/sse", headers: { "X-Key": "k" } },
        "project-and-user": { command: "user-scope" },
      },
      projects: {
        "/some/other/project": { mcpServers: { elsewhere: { command: "not-here" } } },
        [tree.project]: {
          allowedTools: [],
          mcpServers: {
            shared: { type: "stdio", command: "local-scope", args: ["--local"], env: { A: "1" } },
            sentry: {
              type: "http",
              url: "https://mcp.sentry.dev/mcp",
              headers: { Authorization: "Bearer x" },
              oauth: { clientId: "client-1", callbackPort: 8080, scopes: "read write" },
            },
          },
        },
      },
    });
    const mcpJson = await tree.writeProject(".mcp.json", {
      mcpServers: {
        shared: { command: "project-scope" },
        "project-and-user": { command: "project-scope" },
        weather: { type: "streamable-http", url: "https://weather.example.com/mcp" },
      },
    });
    const result = await tree.load({ sources: [createClaudeCodeSource()] });
    expect(result.errors).toEqual([]);
    const local = { provider: "claude-code", providerName: "Claude Code", path: claudeJson, level: "user" };
    const project = { provider: "claude-code", providerName: "Claude Code", path: mcpJson, level: "project" };
    expect(result.configs).toEqual({
      shared: { type: "stdio", command: "local-scope", args: ["--local"], env: { A: "1" } },
      sentry: {
        type: "http",
        url: "https://mcp.sentry.dev/mcp",
        headers: { Authorization: "Bearer x" },
        auth: { type: "oauth", clientId: "client-1", callbackPort: 8080, scope: "read write" },
      },
      "project-and-user": { command: "project-scope" },
      weather: { type: "http", url: "https://weather.example.com/mcp" },
      "user-only": { type: "sse", url: "https://sse.example.com/sse", headers: { "X-Key": "k" } },
    });
    expect(result.sources.shared).toEqual(local);
    expect(result.sources.weather).toEqual(project);
    expect(result.shadowed).toEqual([
      { name: "shared", source: project, by: local },
      { name: "shared", source: local, by: local },
      { name: "project-and-user", source: local, by: project },
    ]);
    expect(result.configs.elsewhere).toBeUndefined();
  });

  it("finds projects[<cwd>] through a trailing slash and through a symlinked cwd", async () => {
    const tree = await fixture();
    await tree.writeHome(".claude.json", {
      projects: { [`${tree.project}/`]: { mcpServers: { local: { command: "local-mcp" } } } },
    });
    expect(Object.keys((await tree.load()).configs)).toEqual(["local"]);

    const link = join(tree.root, "link");
    await symlink(tree.project, link);
    const fromLink = await loadAllMCPConfigs(link, {
      homeDir: tree.home,
      env: {},
      sources: [createClaudeCodeSource()],
    });
    expect(fromLink.configs).toEqual({ local: { command: "local-mcp" } });
  });

  it("finds projects[<key>] when the key is a symlink to the cwd, or spelled with . or ..", async () => {
    const tree = await fixture();
    const link = join(tree.root, "link-to-project");
    await symlink(tree.project, link);
    await tree.writeHome(".claude.json", {
      projects: {
        "/elsewhere/unrelated": { mcpServers: { other: { command: "no" } } },
        [link]: { mcpServers: { viaLink: { command: "linked-mcp" } } },
      },
    });
    expect((await tree.load()).configs).toEqual({ viaLink: { command: "linked-mcp" } });

    await tree.writeHome(".claude.json", {
      projects: { [`${tree.project}/./sub/..`]: { mcpServers: { dotted: { command: "d" } } } },
    });
    expect((await tree.load()).configs).toEqual({ dotted: { command: "d" } });
  });

  it("turns .mcp.json servers the user declined in Claude (disabledMcpjsonServers) into disabled", async () => {
    const tree = await fixture();
    await tree.writeHome(".claude.json", {
      projects: { [tree.project]: { disabledMcpjsonServers: ["risky"] } },
    });
    await tree.writeProject(".mcp.json", {
      mcpServers: { risky: { command: "rm" }, fine: { command: "ok" } },
    });
    const result = await tree.load();
    expect(Object.keys(result.configs)).toEqual(["fine"]);
    expect(result.disabled.map((entry) => entry.name)).toEqual(["risky"]);
  });

  it("reads .claude.json from $CLAUDE_CONFIG_DIR when set", async () => {
    const tree = await fixture();
    const dir = join(tree.root, "claude-config");
    await mkdir(dir);
    await tree.writeHome(".claude.json", { mcpServers: { home: { command: "home" } } });
    await writeFile(
      join(dir, ".claude.json"),
      JSON.stringify({ mcpServers: { moved: { command: "moved" } } }),
    );
    const result = await tree.load({ env: { CLAUDE_CONFIG_DIR: dir } });
    expect(result.configs).toEqual({ moved: { command: "moved" } });
  });
});
