// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are part of what is tested
import { createAntigravitySource, createGeminiSource, type DiscoveryContext } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { sourceMeta, useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();
const CLI_FILE = ".gemini/config/mcp_config.json";
const IDE_FILE = ".gemini/antigravity/mcp_config.json";

describe("Antigravity source", () => {
  it("maps command, args, env, serverUrl, headers and disabled; ignores fields it does not know", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(CLI_FILE, {
      mcpServers: {
        github: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-github"],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GH_TOKEN}", MODE: "${MODE:-read}" },
          description: "a field only Antigravity knows",
        },
        docs: { serverUrl: "https://docs.example/mcp", headers: { Authorization: "Bearer ${DOCS_KEY}" } },
        quiet: { command: "srv", disabled: true },
        loud: { command: "srv", disabled: false },
      },
      somethingElse: { kept: true },
    });
    const result = await tree.load({
      sources: [createAntigravitySource()],
      env: { GH_TOKEN: "ghp-value", DOCS_KEY: "docs-value" },
    });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      github: {
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-github"],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp-value", MODE: "read" },
      },
      docs: { url: "https://docs.example/mcp", headers: { Authorization: "Bearer docs-value" } },
      loud: { command: "srv", enabled: true },
    });
    const meta = sourceMeta("antigravity", "Antigravity", file, "user");
    expect(result.sources.github).toEqual(meta);
    expect(result.disabled).toEqual([{ name: "quiet", source: meta }]);
  });

  it("reads the IDE's file too; a name in both is the CLI's, the IDE's entry shadowed", async () => {
    const tree = await fixture();
    const cli = await tree.writeHome(CLI_FILE, { mcpServers: { shared: { command: "from-cli" } } });
    const ide = await tree.writeHome(IDE_FILE, {
      mcpServers: { shared: { command: "from-ide" }, ideOnly: { serverUrl: "https://ide.example/mcp" } },
    });
    const result = await tree.load({ sources: [createAntigravitySource()] });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      shared: { command: "from-cli" },
      ideOnly: { url: "https://ide.example/mcp" },
    });
    expect(result.sources.ideOnly?.path).toBe(ide);
    expect(result.shadowed).toEqual([
      {
        name: "shared",
        source: sourceMeta("antigravity", "Antigravity", ide, "user"),
        by: sourceMeta("antigravity", "Antigravity", cli, "user"),
      },
    ]);
  });

  it("names both files in paths, CLI first, before they exist; reads no project file", async () => {
    const tree = await fixture();
    const ctx: DiscoveryContext = { cwd: tree.project, homeDir: tree.home, env: {}, platform: "linux" };
    expect(createAntigravitySource().paths?.(ctx)).toEqual([
      `${tree.home}/${CLI_FILE}`,
      `${tree.home}/${IDE_FILE}`,
    ]);
    await tree.writeProject(CLI_FILE, { mcpServers: { project: { command: "x" } } });
    await tree.writeProject(".agents/mcp_config.json", { mcpServers: { project: { command: "x" } } });
    expect((await tree.load()).configs).toEqual({});
  });

  it("reports bad JSON as an error naming the file, and still reads the other file", async () => {
    const tree = await fixture();
    const cli = await tree.writeHome(CLI_FILE, '{ "mcpServers": { "a": { "command": "x" } ');
    await tree.writeHome(IDE_FILE, { mcpServers: { b: { command: "y" } } });
    const result = await tree.load({ sources: [createAntigravitySource()] });
    expect(result.configs).toEqual({ b: { command: "y" } });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ path: cli, code: "CONFIG_INVALID" });
    expect(result.errors[0]?.message).toContain(cli);
  });

  it("wins over Gemini CLI, whose successor it is, for the same name", async () => {
    const tree = await fixture();
    const agy = await tree.writeHome(CLI_FILE, { mcpServers: { search: { command: "new" } } });
    await tree.writeHome(".gemini/settings.json", { mcpServers: { search: { command: "old" } } });
    const result = await tree.load({ sources: [createGeminiSource(), createAntigravitySource()] });
    expect(result.configs.search).toEqual({ command: "new" });
    expect(result.sources.search?.path).toBe(agy);
    expect(result.shadowed.map((entry) => entry.source.provider)).toEqual(["gemini"]);
  });

  it("is user level: its servers start without project trust", async () => {
    const tree = await fixture();
    await tree.writeHome(CLI_FILE, { mcpServers: { mine: { command: "srv" } } });
    const result = await tree.load({ trust: undefined });
    expect(result.configs.mine).toEqual({ command: "srv" });
    expect(result.needsApproval).toEqual([]);
  });
});
