// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are part of the documented forms tested here
import { join } from "node:path";
import type { LoadConfigsOptions, LoadConfigsResult } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { type FixtureTree, useFixtureTrees, writeAt } from "./helpers.js";

const fixture = useFixtureTrees();

/**
 * A fixture with Claude Code's managed folder under a system root (as
 * `/etc/claude-code/` on Linux), files written as code.claude.com/docs/en/managed-mcp shows them.
 */
async function managed(files: {
  settings?: object | string;
  mcp?: object | string;
  dropIns?: Record<string, object>;
}): Promise<{
  tree: FixtureTree;
  dir: string;
  load(options?: LoadConfigsOptions): Promise<LoadConfigsResult>;
}> {
  const tree = await fixture();
  const systemRoot = join(tree.root, "system");
  const dir = join(systemRoot, "etc", "claude-code");
  if (files.settings !== undefined) await writeAt(dir, "managed-settings.json", files.settings);
  if (files.mcp !== undefined) await writeAt(dir, "managed-mcp.json", files.mcp);
  for (const [name, content] of Object.entries(files.dropIns ?? {})) {
    await writeAt(dir, join("managed-settings.d", name), content);
  }
  return { tree, dir, load: (options = {}) => tree.load({ systemRoot, ...options }) };
}

const started = (result: LoadConfigsResult): string[] =>
  Object.keys(result.configs).map((name) => `${result.sources[name]?.provider}:${name}`);
const blocked = (result: LoadConfigsResult): Record<string, string> =>
  Object.fromEntries(
    (result.blocked ?? []).map((entry) => [`${entry.source.provider}:${entry.name}`, entry.rule]),
  );

describe("Claude Code's managed settings (allowedMcpServers / deniedMcpServers), for Claude Code's servers", () => {
  it("applies the documented example to Claude Code's servers and to no other client's", async () => {
    const { tree, dir, load } = await managed({
      settings: {
        allowedMcpServers: [
          { serverUrl: "https://api.githubcopilot.com/*" },
          { serverUrl: "https://mcp.sentry.dev/*" },
          { serverCommand: ["npx", "-y", "@modelcontextprotocol/server-filesystem", "."] },
          { serverCommand: ["python", "/usr/local/bin/approved-server.py"] },
          { serverUrl: "https://mcp.example.com/*" },
          { serverUrl: "https://*.internal.example.com/*" },
        ],
        deniedMcpServers: [
          { serverName: "dangerous-server" },
          { serverCommand: ["npx", "-y", "unapproved-package"] },
          { serverUrl: "https://*.untrusted.example.com/*" },
        ],
      },
    });
    await tree.writeHome(".claude.json", {
      mcpServers: {
        github: { type: "http", url: "https://api.githubcopilot.com/mcp/" },
        fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] },
        "dangerous-server": { type: "http", url: "https://mcp.example.com/x" },
        unapproved: { command: "npx", args: ["-y", "unapproved-package"] },
        // A name the allow list does not know cannot get a server through: URL entries exist.
        sentry: { type: "http", url: "https://sentry.evil.example/mcp" },
        local: { command: "node", args: ["server.js"] },
      },
    });
    // Another client's files are Claude Code's policy's business no more than Claude Code's own.
    await tree.writeHome(".cursor/mcp.json", {
      mcpServers: { "cursor-local": { command: "node", args: ["server.js"] } },
    });
    const result = await load();
    expect(started(result).sort()).toEqual(["claude-code:fs", "claude-code:github", "cursor:cursor-local"]);
    expect(blocked(result)).toEqual({
      "claude-code:dangerous-server": 'deniedMcpServers: { "serverName": "dangerous-server" }',
      "claude-code:unapproved": 'deniedMcpServers: { "serverCommand": ["npx","-y","unapproved-package"] }',
      "claude-code:sentry": "allowedMcpServers: no serverUrl entry matches its URL",
      "claude-code:local": "allowedMcpServers: no serverCommand entry is its exact command and arguments",
    });
    expect(new Set(result.blocked?.map((entry) => entry.policyFile))).toEqual(
      new Set([join(dir, "managed-settings.json")]),
    );
    expect(result.blocked?.every((entry) => entry.policy === "claude-code")).toBe(true);
  });

  it.each([
    // The documentation's accordions, each as its table reads.
    [
      "URL-only allowlist",
      {
        allowedMcpServers: [
          { serverUrl: "https://mcp.example.com/*" },
          { serverUrl: "https://*.internal.example.com/*" },
        ],
      },
      {
        a: "https://mcp.example.com/api",
        b: "https://api.internal.example.com/mcp",
        c: "https://external.example.com/mcp",
      },
      { s: ["node", "server.js"] },
      ["a", "b"],
    ],
    [
      "command-only allowlist",
      { allowedMcpServers: [{ serverCommand: ["npx", "-y", "approved-package"] }] },
      { "my-api": "https://my-api.example/mcp" },
      { ok: ["npx", "-y", "approved-package"], no: ["node", "server.js"] },
      ["ok"],
    ],
    [
      "name-only allowlist",
      { allowedMcpServers: [{ serverName: "github" }, { serverName: "internal-tool" }] },
      { github: "https://github.example/mcp", other: "https://other.example/mcp" },
      { "internal-tool": ["anything", "at-all"] },
      ["github", "internal-tool"],
    ],
  ])("%s", async (_label, settings, remote, local, allowed) => {
    const { tree, load } = await managed({ settings });
    await tree.writeHome(".claude.json", {
      mcpServers: {
        ...Object.fromEntries(Object.entries(remote).map(([name, url]) => [name, { type: "http", url }])),
        ...Object.fromEntries(
          Object.entries(local).map(([name, [command, ...args]]) => [name, { command, args }]),
        ),
      },
    });
    expect(Object.keys((await load()).configs).sort()).toEqual(allowed);
  });

  it("combines the lists of managed-settings.json and every managed-settings.d/*.json", async () => {
    const { tree, load } = await managed({
      settings: { deniedMcpServers: [{ serverName: "a" }] },
      dropIns: {
        "10-allow.json": { allowedMcpServers: [{ serverName: "a" }, { serverName: "b" }] },
        "20-deny.json": { deniedMcpServers: [{ serverName: "b" }] },
        ".hidden.json": { deniedMcpServers: [{ serverName: "c" }] },
      },
    });
    await tree.writeHome(".claude.json", {
      mcpServers: {
        a: { url: "https://a.example" },
        b: { url: "https://b.example" },
        c: { url: "https://c.example" },
      },
    });
    const result = await load();
    expect(Object.keys(result.configs)).toEqual([]);
    expect(blocked(result)).toEqual({
      "claude-code:a": 'deniedMcpServers: { "serverName": "a" }',
      "claude-code:b": 'deniedMcpServers: { "serverName": "b" }',
      "claude-code:c": 'allowedMcpServers: no serverName entry is "c" (and none gives a serverUrl)',
    });
  });

  it("expands ${VAR} in serverCommand entries, as Claude Code does, before matching", async () => {
    const { tree, load } = await managed({
      settings: { allowedMcpServers: [{ serverCommand: ["${HOME}/bin/server"] }] },
    });
    await tree.writeHome(".claude.json", {
      mcpServers: { mine: { command: "/home/ann/bin/server" }, other: { command: "/tmp/bin/server" } },
    });
    expect(Object.keys((await load({ env: { HOME: "/home/ann" } })).configs)).toEqual(["mine"]);
  });

  it("is not loosened by the lists of the user's or the project's own Claude Code settings", async () => {
    const { tree, load } = await managed({
      settings: { allowedMcpServers: [{ serverUrl: "https://approved.example/*" }] },
    });
    const widen = { allowedMcpServers: [{ serverUrl: "https://*" }, { serverName: "mine" }] };
    await tree.writeHome(".claude/settings.json", widen);
    await tree.writeProject(".claude/settings.json", widen);
    await tree.writeProject(".claude/settings.local.json", widen);
    await tree.writeHome(".claude.json", {
      mcpServers: { ok: { url: "https://approved.example/mcp" }, mine: { url: "https://mine.example/mcp" } },
    });
    await tree.writeProject(".mcp.json", { mcpServers: { theirs: { url: "https://theirs.example/mcp" } } });
    const result = await load();
    expect(Object.keys(result.configs)).toEqual(["ok"]);
    expect(Object.keys(blocked(result)).sort()).toEqual(["claude-code:mine", "claude-code:theirs"]);
  });

  it("fails closed on a file that does not parse or an entry that is not valid, for Claude Code's servers only", async () => {
    for (const settings of [
      "{ not json",
      { allowedMcpServers: [{ serverName: "has space" }] },
      { deniedMcpServers: [{ serverUrl: "https://a/*", serverName: "a" }] },
    ]) {
      const { tree, dir, load } = await managed({ settings });
      await tree.writeHome(".claude.json", { mcpServers: { c: { command: "c" } } });
      await tree.writeHome(".cursor/mcp.json", { mcpServers: { d: { command: "d" } } });
      const result = await load();
      expect(started(result)).toEqual(["cursor:d"]);
      expect(result.blocked?.[0]?.rule).toContain("the policy file cannot be used");
      const issue = result.errors.find((error) => error.path === join(dir, "managed-settings.json"));
      expect(issue?.message).toContain("every Claude Code server is blocked until the file is fixed");
    }
  });
});

describe("Claude Code's managed-mcp.json: exclusive control", () => {
  it("starts its servers and no other of Claude Code's; other clients' servers are not its business", async () => {
    const { tree, dir, load } = await managed({
      mcp: {
        mcpServers: {
          github: { type: "http", url: "https://api.githubcopilot.com/mcp/" },
          "company-internal": {
            type: "stdio",
            command: "/usr/local/bin/company-mcp-server",
            args: ["--config", "/etc/company/mcp-config.json"],
          },
        },
      },
    });
    await tree.writeHome(".claude.json", { mcpServers: { mine: { command: "mine" } } });
    await tree.writeProject(".mcp.json", { mcpServers: { theirs: { command: "theirs" } } });
    await tree.writeHome(".cursor/mcp.json", { mcpServers: { cursor: { command: "cursor-mcp" } } });
    const result = await load();
    expect(started(result).sort()).toEqual([
      "claude-code:company-internal",
      "claude-code:github",
      "cursor:cursor",
    ]);
    expect(result.sources.github).toMatchObject({ path: join(dir, "managed-mcp.json"), level: "user" });
    const rule =
      "managed-mcp.json takes exclusive control of Claude Code's servers: only the servers it defines start";
    expect(blocked(result)).toEqual({ "claude-code:mine": rule, "claude-code:theirs": rule });
  });

  it("with an empty server map, starts none of Claude Code's servers", async () => {
    const { tree, load } = await managed({ mcp: { mcpServers: {} } });
    await tree.writeHome(".claude.json", { mcpServers: { mine: { command: "mine" } } });
    expect((await load()).configs).toEqual({});
  });

  it("is filtered by both managed lists, as its own servers are not exempt from them", async () => {
    const { load } = await managed({
      mcp: {
        mcpServers: {
          plain: { command: "plain-mcp" },
          fromEnv: { command: "${TOOLS}/env-mcp" },
          other: { command: "other-mcp" },
          denied: { url: "https://denied.example/mcp" },
        },
      },
      settings: {
        allowedMcpServers: [{ serverCommand: ["plain-mcp"] }, { serverCommand: ["/opt/env-mcp"] }],
        deniedMcpServers: [{ serverName: "denied" }],
      },
    });
    const result = await load({ env: { TOOLS: "/opt" } });
    expect(Object.keys(result.configs).sort()).toEqual(["fromEnv", "plain"]);
    expect(blocked(result)).toEqual({
      "claude-code:other": "allowedMcpServers: no serverCommand entry is its exact command and arguments",
      "claude-code:denied": 'deniedMcpServers: { "serverName": "denied" }',
    });
  });

  it("fails closed when it cannot be read: every Claude Code server is blocked", async () => {
    const { tree, load } = await managed({ mcp: "{ broken" });
    await tree.writeHome(".claude.json", { mcpServers: { mine: { command: "mine" } } });
    const result = await load();
    expect(result.configs).toEqual({});
    expect(result.blocked?.[0]?.rule).toContain(
      "the policy file cannot be used (line 1, column 3: invalid JSON",
    );
    expect(result.errors.some((error) => error.message.includes("managed-mcp.json"))).toBe(true);
  });
});
