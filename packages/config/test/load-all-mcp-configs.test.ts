// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are what these tests are about
import { createCursorSource, createNativeSource, loadAllMCPConfigs } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { sourceMeta, useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

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
    const winner = sourceMeta("mcp-rt", "mcp-rt", native, "user");
    expect(result.sources).toEqual({ github: winner });
    expect(result.shadowed).toEqual([
      { name: "github", source: sourceMeta("claude-code", "Claude Code", claude, "project"), by: winner },
      { name: "github", source: sourceMeta("cursor", "Cursor", cursor, "project"), by: winner },
      { name: "github", source: sourceMeta("vscode", "VS Code", vscode, "project"), by: winner },
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
    expect(result.disabled).toEqual([
      { name: "off", source: sourceMeta("mcp-rt", "mcp-rt", native, "user") },
    ]);
    expect(result.errors.map((issue) => issue.server)).toEqual(["bad", "junk"]);
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
      { name: "paused", source: sourceMeta("cursor", "Cursor", cursor, "user") },
      { name: "listed", source: sourceMeta("cursor", "Cursor", cursor, "user") },
    ]);
    expect(result.errors).toEqual([]);
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
      blocked: [],
      needsApproval: [],
      files: expect.any(Array),
    });
  });

  it("puts every entry in exactly one list, across all the built-in providers", async () => {
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
    await tree.writeHome(".gemini/config/mcp_config.json", {
      mcpServers: { a1: { serverUrl: "https://a.dev/mcp" }, a2: { command: "a", disabled: true } },
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
    expect(Object.keys(result.configs)).toEqual(["n1", "d1", "a1", "u1"]);
    expect(Object.keys(result.sources)).toEqual(["n1", "d1", "a1", "u1"]);
    expect(result.shadowed.map((entry) => entry.name)).toEqual(["n1"]);
    expect(result.disabled.map((entry) => entry.name)).toEqual(["x1", "a2", "w1"]);
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
