// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are what these tests are about
import {
  type CapabilitySource,
  createCursorSource,
  createNativeSource,
  type DiscoveryContext,
  loadAllMCPConfigs,
  type SourceMeta,
} from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./fixture-tree.js";

const fixture = useFixtureTrees();

const meta = (
  provider: string,
  providerName: string,
  path: string,
  level: SourceMeta["level"],
): SourceMeta => ({
  provider,
  providerName,
  path,
  level,
});

describe("loadAllMCPConfigs: priority and shadowing", () => {
  it("lets the higher-priority provider win a name and reports the others as shadowed by it", async () => {
    const tree = await fixture();
    const vscode = await tree.writeProject(".vscode/mcp.json", {
      servers: { github: { type: "stdio", command: "vscode" } },
    });
    const cursor = await tree.writeProject(".cursor/mcp.json", {
      mcpServers: { github: { command: "cursor" } },
    });
    const native = await tree.writeHome(".mcp-rt/mcp.json", {
      mcpServers: { github: { command: "native" } },
    });
    const claude = await tree.writeProject(".mcp.json", { mcpServers: { github: { command: "claude" } } });
    const result = await tree.load();
    expect(result.configs).toEqual({ github: { command: "native" } });
    const winner = meta("mcp-rt", "mcp-rt", native, "user");
    expect(result.sources).toEqual({ github: winner });
    expect(result.shadowed).toEqual([
      { name: "github", source: meta("claude-code", "Claude Code", claude, "project"), by: winner },
      { name: "github", source: meta("cursor", "Cursor", cursor, "project"), by: winner },
      { name: "github", source: meta("vscode", "VS Code", vscode, "project"), by: winner },
    ]);
  });

  it("ranks a source by its priority, not by its place in the list", async () => {
    const tree = await fixture();
    await tree.writeHome(".cursor/mcp.json", { mcpServers: { a: { command: "cursor" } } });
    await tree.writeHome(".mcp-rt/mcp.json", { mcpServers: { a: { command: "native" } } });
    const result = await tree.load({ sources: [createCursorSource(), createNativeSource()] });
    expect(result.configs).toEqual({ a: { command: "native" } });
  });

  it("keeps the winner even when it is disabled or invalid: a lower entry never takes its place", async () => {
    const tree = await fixture();
    const native = await tree.writeHome(".mcp-rt/mcp.json", {
      mcpServers: { off: { command: "x", enabled: false }, bad: { command: 1 }, junk: "not an object" },
    });
    await tree.writeHome(".cursor/mcp.json", {
      mcpServers: { off: { command: "y" }, bad: { command: "y" }, junk: { command: "y" } },
    });
    const result = await tree.load();
    expect(result.configs).toEqual({});
    expect(result.shadowed.map((entry) => entry.name)).toEqual(["off", "bad", "junk"]);
    expect(result.disabled).toEqual([{ name: "off", source: meta("mcp-rt", "mcp-rt", native, "user") }]);
    expect(result.errors.map((issue) => issue.server)).toEqual(["bad", "junk"]);
  });
});

describe("loadAllMCPConfigs: enableProjectConfig", () => {
  it("does not read project files at all when false, so a user entry of the same name counts", async () => {
    const tree = await fixture();
    await tree.writeProject(".mcp.json", {
      mcpServers: { shared: { command: "project" }, evil: { command: "rm" } },
    });
    await tree.writeProject(".cursor/mcp.json", "{ this is not JSON");
    await tree.writeProject(".codex/config.toml", "[[[ nor TOML");
    const userFile = await tree.writeHome(".cursor/mcp.json", {
      mcpServers: { shared: { command: "user" } },
    });
    const off = await tree.load({ enableProjectConfig: false });
    expect(off.configs).toEqual({ shared: { command: "user" } });
    expect(off.sources.shared).toEqual(meta("cursor", "Cursor", userFile, "user"));
    expect(off.errors).toEqual([]);
    expect(off.shadowed).toEqual([]);

    const on = await tree.load();
    expect(on.configs).toEqual({ shared: { command: "project" }, evil: { command: "rm" } });
    expect(on.errors).toHaveLength(2);
  });

  it("keeps Claude's local scope, which lives in the user's file", async () => {
    const tree = await fixture();
    await tree.writeHome(".claude.json", {
      projects: { [tree.project]: { mcpServers: { mine: { command: "m" } } } },
    });
    await tree.writeProject(".mcp.json", { mcpServers: { theirs: { command: "t" } } });
    expect(Object.keys((await tree.load({ enableProjectConfig: false })).configs)).toEqual(["mine"]);
  });

  it("drops project-level entries of a custom source that ignores the flag", async () => {
    const tree = await fixture();
    const careless: CapabilitySource = {
      id: "careless",
      name: "Careless",
      priority: 1,
      async load() {
        return {
          servers: [
            {
              name: "p",
              config: { command: "p" },
              source: meta("careless", "Careless", "/p.json", "project"),
            },
            { name: "u", config: { command: "u" }, source: meta("careless", "Careless", "/u.json", "user") },
          ],
          issues: [],
        };
      },
    };
    expect(
      Object.keys((await tree.load({ sources: [careless], enableProjectConfig: false })).configs),
    ).toEqual(["u"]);
    expect(Object.keys((await tree.load({ sources: [careless] })).configs)).toEqual(["p", "u"]);
  });
});

describe("loadAllMCPConfigs: disabled", () => {
  it("reports enabled:false and disabledServers as disabled, before expansion so unset variables do not matter", async () => {
    const tree = await fixture();
    const cursor = await tree.writeHome(".cursor/mcp.json", {
      mcpServers: {
        paused: { command: "x", enabled: false, env: { TOKEN: "${UNSET_TOKEN}" } },
        listed: { command: "y" },
        running: { command: "z" },
      },
    });
    await tree.writeProject(".mcp-rt/mcp.json", { disabledServers: ["listed", "not-defined-anywhere"] });
    const result = await tree.load();
    expect(result.configs).toEqual({ running: { command: "z" } });
    expect(result.disabled).toEqual([
      { name: "paused", source: meta("cursor", "Cursor", cursor, "user") },
      { name: "listed", source: meta("cursor", "Cursor", cursor, "user") },
    ]);
    expect(result.errors).toEqual([]);
  });
});

describe("loadAllMCPConfigs: reserve", () => {
  it("holds back what the caller's rule answers for, with its reason and keys, after expansion", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".mcp-rt/mcp.json", {
      mcpServers: {
        search: { url: "https://search.example/mcp?key=${SEARCH_KEY}" },
        keyless: { command: "search-proxy" },
        other: { command: "other" },
      },
    });
    const asked: unknown[] = [];
    const result = await tree.load({
      env: { SEARCH_KEY: "k-1" },
      reserve: (server) => {
        asked.push(server);
        if (server.name === "search") return { reason: "native-search", keys: ["k-1"] };
        return server.name === "keyless" ? { reason: "native-search" } : undefined;
      },
    });
    const source = meta("mcp-rt", "mcp-rt", file, "user");
    expect(asked).toEqual([
      { name: "search", config: { url: "https://search.example/mcp?key=k-1" }, source },
      { name: "keyless", config: { command: "search-proxy" }, source },
      { name: "other", config: { command: "other" }, source },
    ]);
    expect(result.configs).toEqual({ other: { command: "other" } });
    expect(result.filtered).toEqual([
      { name: "search", source, reason: "native-search", keys: ["k-1"] },
      { name: "keyless", source, reason: "native-search", keys: [] },
    ]);
  });

  it("never asks about a disabled or invalid server, and holds nothing back without a rule", async () => {
    const tree = await fixture();
    await tree.writeHome(".mcp-rt/mcp.json", {
      mcpServers: { off: { command: "x", enabled: false }, bad: { command: 1 }, on: { command: "y" } },
    });
    const asked: string[] = [];
    const result = await tree.load({
      reserve: ({ name }) => {
        asked.push(name);
        return undefined;
      },
    });
    expect(asked).toEqual(["on"]);
    expect(result.disabled.map((entry) => entry.name)).toEqual(["off"]);
    expect(result.errors.map((issue) => issue.server)).toEqual(["bad"]);
    expect((await tree.load()).filtered).toEqual([]);
  });
});

describe("loadAllMCPConfigs: the result", () => {
  it("is empty, not an error, when no file exists", async () => {
    const tree = await fixture();
    expect(await tree.load()).toEqual({
      configs: {},
      sources: {},
      errors: [],
      shadowed: [],
      disabled: [],
      filtered: [],
      needsApproval: [],
    });
  });

  it("puts every entry in exactly one list, across all eight providers", async () => {
    const tree = await fixture();
    await tree.writeHome(".mcp-rt/mcp.json", {
      mcpServers: { n1: { command: "a" } },
      disabledServers: ["w1"],
    });
    await tree.writeHome(".claude.json", { mcpServers: { c1: { command: "a", args: [1] } } });
    await tree.writeHome(".config/Claude/claude_desktop_config.json", {
      mcpServers: { d1: { command: "a" } },
    });
    await tree.writeHome(".codex/config.toml", '[mcp_servers.x1]\ncommand = "a"\nenabled = false\n');
    await tree.writeHome(".gemini/settings.json", {
      mcpServers: { g1: { httpUrl: "https://g.dev/mcp" } },
    });
    await tree.writeHome(".cursor/mcp.json", {
      mcpServers: { u1: { url: "https://u.dev/mcp" }, n1: { command: "b" } },
    });
    await tree.writeHome(".codeium/windsurf/mcp_config.json", { mcpServers: { w1: { command: "a" } } });
    await tree.writeHome(".config/Code/User/mcp.json", {
      servers: { v1: { type: "stdio", command: "${NOPE}" } },
    });
    const result = await tree.load({
      reserve: ({ name }) => (name === "g1" ? { reason: "test" } : undefined),
    });
    expect(Object.keys(result.configs)).toEqual(["n1", "d1", "u1"]);
    expect(Object.keys(result.sources)).toEqual(["n1", "d1", "u1"]);
    expect(result.shadowed.map((entry) => entry.name)).toEqual(["n1"]);
    expect(result.disabled.map((entry) => entry.name)).toEqual(["x1", "w1"]);
    expect(result.filtered.map((entry) => entry.name)).toEqual(["g1"]);
    expect(result.errors.map((issue) => [issue.server, issue.code])).toEqual([
      ["c1", "CONFIG_INVALID"],
      ["v1", "VAR_UNSET"],
    ]);
    expect(result.needsApproval).toEqual([]);
  });

  it("handles server names that are special in JavaScript objects", async () => {
    const tree = await fixture();
    await tree.writeHome(
      ".mcp-rt/mcp.json",
      '{ "mcpServers": { "__proto__": { "command": "a" }, "constructor": { "command": "b" } } }',
    );
    const result = await tree.load();
    expect(Object.keys(result.configs)).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(result.configs)).toBe(Object.prototype);
    const name: string = "constructor";
    expect(result.sources[name]?.provider).toBe("mcp-rt");
  });

  it("defaults to process.env, os.homedir() and the built-in sources without throwing", async () => {
    const tree = await fixture();
    const result = await loadAllMCPConfigs(tree.project);
    expect(result).toHaveProperty("configs");
    expect(Array.isArray(result.errors)).toBe(true);
  });
});

describe("loadAllMCPConfigs: custom sources", () => {
  const source = (
    load: CapabilitySource["load"],
    extra: Partial<CapabilitySource> = {},
  ): CapabilitySource => ({
    id: "custom",
    name: "Custom",
    priority: 10,
    load,
    ...extra,
  });

  it("turns a source that throws, or returns nonsense, into an error and keeps the other sources", async () => {
    const tree = await fixture();
    await tree.writeHome(".mcp-rt/mcp.json", { mcpServers: { ok: { command: "ok" } } });
    const throwing = source(async () => {
      throw new Error("disk on fire");
    });
    const nonsense = source(async () => 42 as never, { id: "nonsense", name: "Nonsense" });
    const result = await tree.load({ sources: [throwing, nonsense, createNativeSource()] });
    expect(result.configs).toEqual({ ok: { command: "ok" } });
    expect(result.errors).toEqual([
      {
        path: "source:custom",
        code: "CONFIG_UNREADABLE",
        message: 'config source "Custom" failed (disk on fire); its servers were skipped',
      },
      {
        path: "source:nonsense",
        code: "CONFIG_UNREADABLE",
        message:
          'config source "Nonsense" returned 42 instead of { servers, issues }; its servers were skipped',
      },
    ]);
  });

  it("passes the discovery context and skips malformed entries of a source", async () => {
    const tree = await fixture();
    let seen: DiscoveryContext | undefined;
    const custom = source(async (ctx) => {
      seen = ctx;
      return {
        servers: [
          { name: "good", config: { command: "g" }, source: meta("custom", "Custom", "/c.json", "user") },
          { name: "no-source", config: { command: "x" } } as never,
        ],
        issues: [{ path: "/c.json", message: "a warning from the source" }],
      };
    });
    const result = await tree.load({ sources: [custom], env: { A: "1" }, platform: "darwin" });
    expect(seen).toEqual({
      cwd: tree.project,
      homeDir: tree.home,
      env: { A: "1" },
      platform: "darwin",
      enableProjectConfig: true,
    });
    expect(result.configs).toEqual({ good: { command: "g" } });
    expect(result.errors[0]).toEqual({ path: "/c.json", message: "a warning from the source" });
    expect(result.errors[1]?.message).toMatch(/returned a malformed entry/);
  });
});
