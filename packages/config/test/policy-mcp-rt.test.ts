// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in fixture configs are part of what is tested
import { join } from "node:path";
import { createTrustStore, type LoadConfigsOptions, type LoadConfigsResult } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { policyPaths } from "../src/policy/policy-paths.js";
import { type FixtureTree, useFixtureTrees, writeAt } from "./helpers.js";

const fixture = useFixtureTrees();

/** A fixture whose mcp-rt policy is `policy` (a string as is), named by `$MCP_RT_POLICY`. */
async function withPolicy(policy: string | object): Promise<{
  tree: FixtureTree;
  policyFile: string;
  load(options?: LoadConfigsOptions): Promise<LoadConfigsResult>;
}> {
  const tree = await fixture();
  const policyFile = await writeAt(tree.root, "admin/policy.json", policy);
  return {
    tree,
    policyFile,
    load: (options = {}) => tree.load({ env: { MCP_RT_POLICY: policyFile }, ...options }),
  };
}

/** Name → the rule that blocked it. */
function blockedRules(result: LoadConfigsResult): Record<string, string> {
  return Object.fromEntries((result.blocked ?? []).map((entry) => [entry.name, entry.rule]));
}

const SERVERS = {
  github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"] },
  fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] },
  docs: { url: "https://docs.example.com/mcp" },
  evil: { url: "https://mcp.evil.example/sse", type: "sse" },
};

describe("mcp-rt's own policy ($MCP_RT_POLICY in these tests, /etc/mcp-rt/policy.json on a machine)", () => {
  it("is no restriction when absent: every server starts", async () => {
    const tree = await fixture();
    await tree.writeHome(".cursor/mcp.json", { mcpServers: SERVERS });
    const result = await tree.load();
    expect(Object.keys(result.configs).sort()).toEqual(["docs", "evil", "fs", "github"]);
    expect(result.blocked).toEqual([]);
  });

  it("lets everything start with no allow list; a deny entry of each kind blocks what it names", async () => {
    const { tree, load, policyFile } = await withPolicy({
      deniedMcpServers: [
        { serverName: "github" },
        { serverCommand: ["npx", "-y", "@modelcontextprotocol/server-filesystem", "."] },
        { serverUrl: "https://*.evil.example/*" },
      ],
    });
    await tree.writeHome(".cursor/mcp.json", { mcpServers: SERVERS });
    const result = await load();
    expect(Object.keys(result.configs)).toEqual(["docs"]);
    expect(blockedRules(result)).toEqual({
      github: 'deniedMcpServers: { "serverName": "github" }',
      fs: 'deniedMcpServers: { "serverCommand": ["npx","-y","@modelcontextprotocol/server-filesystem","."] }',
      evil: 'deniedMcpServers: { "serverUrl": "https://*.evil.example/*" }',
    });
    expect(
      result.blocked?.every((entry) => entry.policyFile === policyFile && entry.policy === "mcp-rt"),
    ).toBe(true);
    expect(result.blocked?.find((entry) => entry.name === "fs")?.source.provider).toBe("cursor");
  });

  it("matches a command exactly: one more or one less argument is another command", async () => {
    const { tree, load } = await withPolicy({ deniedMcpServers: [{ serverCommand: ["npx", "-y", "pkg"] }] });
    await tree.writeHome(".cursor/mcp.json", {
      mcpServers: {
        same: { command: "npx", args: ["-y", "pkg"] },
        more: { command: "npx", args: ["-y", "pkg", "--flag"] },
        less: { command: "npx", args: ["pkg"] },
      },
    });
    const result = await load();
    expect(Object.keys(blockedRules(result))).toEqual(["same"]);
    expect(Object.keys(result.configs).sort()).toEqual(["less", "more"]);
  });

  it("lets deny beat allow", async () => {
    const { tree, load } = await withPolicy({
      allowedMcpServers: [{ serverUrl: "https://*.example.com/*" }],
      deniedMcpServers: [{ serverUrl: "https://staging.example.com/*" }],
    });
    await tree.writeHome(".cursor/mcp.json", {
      mcpServers: {
        prod: { url: "https://mcp.example.com/api" },
        staging: { url: "https://staging.example.com/api" },
        other: { url: "https://other.com/mcp" },
      },
    });
    const result = await load();
    expect(Object.keys(result.configs)).toEqual(["prod"]);
    expect(blockedRules(result)).toEqual({
      staging: 'deniedMcpServers: { "serverUrl": "https://staging.example.com/*" }',
      other: "allowedMcpServers: no serverUrl entry matches its URL",
    });
  });

  it("starts nothing with an empty allow list", async () => {
    const { tree, load } = await withPolicy({ allowedMcpServers: [] });
    await tree.writeHome(".cursor/mcp.json", { mcpServers: SERVERS });
    const result = await load();
    expect(result.configs).toEqual({});
    expect(new Set(Object.values(blockedRules(result)))).toEqual(
      new Set(["allowedMcpServers is empty: no server may start"]),
    );
  });

  it("counts a name in the allow list only for a transport it gives no command or URL entry for", async () => {
    // Claude Code's "mixed name and command allowlist": a stdio server must match a command once one is listed.
    const { tree, load } = await withPolicy({
      allowedMcpServers: [{ serverName: "github" }, { serverCommand: ["npx", "-y", "approved-package"] }],
    });
    await tree.writeHome(".cursor/mcp.json", {
      mcpServers: {
        "local-tool": { command: "npx", args: ["-y", "approved-package"] },
        "other-local": { command: "node", args: ["server.js"] },
        github: { command: "node", args: ["server.js"] },
        "github-remote": { url: "https://api.githubcopilot.com/mcp/" },
      },
    });
    await tree.writeHome(".mcp-rt/mcp.json", { mcpServers: { github2: { url: "https://x.example/mcp" } } });
    const result = await load();
    expect(Object.keys(result.configs)).toEqual(["local-tool"]);
    expect(blockedRules(result)).toEqual({
      github: "allowedMcpServers: no serverCommand entry is its exact command and arguments",
      "other-local": "allowedMcpServers: no serverCommand entry is its exact command and arguments",
      "github-remote":
        'allowedMcpServers: no serverName entry is "github-remote" (and none gives a serverUrl)',
      github2: 'allowedMcpServers: no serverName entry is "github2" (and none gives a serverUrl)',
    });
  });

  it("judges what would run: a command that comes from a variable is matched expanded", async () => {
    const { tree, policyFile } = await withPolicy({ deniedMcpServers: [{ serverCommand: ["evil-mcp"] }] });
    await tree.writeHome(".cursor/mcp.json", { mcpServers: { harmless: { command: "${TOOL}" } } });
    const result = await tree.load({ env: { MCP_RT_POLICY: policyFile, TOOL: "evil-mcp" } });
    expect(result.configs).toEqual({});
    expect(Object.keys(blockedRules(result))).toEqual(["harmless"]);
  });

  it("blocks a project's server that it denies: not asked about, whatever trust says", async () => {
    const { tree, load } = await withPolicy({ deniedMcpServers: [{ serverName: "lint" }] });
    await tree.writeProject(".mcp.json", {
      mcpServers: { lint: { command: "lint-mcp" }, ok: { command: "ok" } },
    });
    const trust = createTrustStore(join(tree.home, ".mcp-rt", "trust.json"));
    for (const options of [{ trust: "all" as const }, { trust }, { trust: undefined }]) {
      const result = await load(options);
      expect(result.configs.lint).toBeUndefined();
      expect(result.needsApproval.map((entry) => entry.name)).not.toContain("lint");
      expect(result.blocked?.map((entry) => [entry.name, entry.source.level])).toEqual([["lint", "project"]]);
    }
  });

  it("is not loosened by a project's or the user's own files", async () => {
    const { tree, load } = await withPolicy({ allowedMcpServers: [{ serverName: "approved" }] });
    await tree.writeHome(".mcp-rt/mcp.json", {
      mcpServers: { mine: { url: "https://mine.example/mcp" } },
      allowedMcpServers: [{ serverName: "mine" }],
    });
    await tree.writeProject(".mcp-rt/mcp.json", {
      mcpServers: { theirs: { url: "https://theirs.example/mcp" } },
      allowedMcpServers: [{ serverName: "theirs" }],
    });
    await tree.writeProject(".mcp-rt/policy.json", { allowedMcpServers: [{ serverName: "theirs" }] });
    const result = await load();
    expect(result.configs).toEqual({});
    expect(Object.keys(blockedRules(result)).sort()).toEqual(["mine", "theirs"]);
  });
});

describe("where policies are read", () => {
  it("reads this machine's system paths whatever platform an option names: another platform only adds", () => {
    const own = policyPaths({ env: {}, platform: process.platform });
    for (const platform of ["linux", "darwin", "win32"] as const) {
      const paths = policyPaths({ env: {}, platform });
      for (const key of ["mcpRt", "claudeCode", "codex"] as const) {
        expect(paths[key]).toEqual(expect.arrayContaining(own[key]));
      }
    }
    expect(policyPaths({ env: {}, platform: "darwin" }).mcpRt).toContain(
      "/Library/Application Support/mcp-rt/policy.json",
    );
    // A ProgramData the environment moves adds a place; C:\ProgramData is still read.
    expect(policyPaths({ env: { ProgramData: "D:\\Data" }, platform: "win32" }).mcpRt).toEqual(
      expect.arrayContaining(["D:\\Data\\mcp-rt\\policy.json", "C:\\ProgramData\\mcp-rt\\policy.json"]),
    );
  });

  it("reads a systemRoot in addition to the real paths, never instead of them", () => {
    const paths = policyPaths({ env: {}, platform: "linux", systemRoot: "/fixture" });
    expect(paths.mcpRt).toEqual(
      expect.arrayContaining(["/etc/mcp-rt/policy.json", "/fixture/etc/mcp-rt/policy.json"]),
    );
    expect(paths.codex).toEqual(
      expect.arrayContaining(["/etc/codex/requirements.toml", "/fixture/etc/codex/requirements.toml"]),
    );
  });
});

describe("a malformed mcp-rt policy fails closed", () => {
  it.each([
    ["bad JSON", '{ "deniedMcpServers": [ ', "invalid JSON"],
    [
      "an entry with two keys",
      { deniedMcpServers: [{ serverName: "a", serverUrl: "https://a/*" }] },
      "deniedMcpServers[0]: must be an object with exactly one of serverName, serverCommand or serverUrl, got keys serverName, serverUrl",
    ],
    [
      "a list that is not a list",
      { allowedMcpServers: { serverName: "a" } },
      "allowedMcpServers: must be a list of entries",
    ],
    [
      "a command that is not a list",
      { deniedMcpServers: [{ serverCommand: "npx evil" }] },
      "deniedMcpServers[0].serverCommand: must be the command and its arguments",
    ],
    [
      "a URL pattern without a scheme",
      { deniedMcpServers: [{ serverUrl: "evil.example/*" }] },
      "deniedMcpServers[0].serverUrl: must be a URL pattern with a scheme and a host",
    ],
    [
      "a misspelt key",
      { deniedMcpServer: [{ serverName: "evil" }] },
      "deniedMcpServer: not a key of mcp-rt's policy",
    ],
    ["not an object", "[]", "expected an object"],
  ])(
    "%s: every server is blocked, and the error names the file and the problem",
    async (_label, policy, problem) => {
      const { tree, load, policyFile } = await withPolicy(policy);
      await tree.writeHome(".cursor/mcp.json", { mcpServers: SERVERS });
      const result = await load();
      expect(result.configs).toEqual({});
      expect(result.blocked?.map((entry) => entry.name).sort()).toEqual(["docs", "evil", "fs", "github"]);
      expect(result.blocked?.[0]?.policyFile).toBe(policyFile);
      expect(result.blocked?.[0]?.rule).toContain("the policy file cannot be used");
      const issue = result.errors.find((error) => error.path === policyFile);
      expect(issue?.message).toContain(problem);
      expect(issue?.message).toMatch(/^\/.*policy\.json: .*every MCP server is blocked until/);
    },
  );

  it("fails closed when $MCP_RT_POLICY is relative, missing, or inside the project", async () => {
    const tree = await fixture();
    await tree.writeHome(".cursor/mcp.json", { mcpServers: { docs: SERVERS.docs } });
    const inside = await tree.writeProject("policy.json", {});
    for (const [named, problem] of [
      ["policy.json", "must be an absolute path"],
      [join(tree.root, "nope.json"), "does not exist"],
      [inside, "a project cannot carry its own policy"],
    ] as const) {
      const result = await tree.load({ env: { MCP_RT_POLICY: named } });
      expect(result.configs).toEqual({});
      expect(result.blocked?.map((entry) => entry.name)).toEqual(["docs"]);
      expect(result.errors.map((error) => error.message).join("\n")).toContain(problem);
    }
  });
});
