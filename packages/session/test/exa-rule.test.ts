// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are part of what is tested
import { type LoadConfigsOptions, loadAllMCPConfigs, type SourceMeta } from "@mcp-rt/config";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXA_REASON, reserveExa } from "../src/exa-rule.js";
import { MCPCommandController } from "../src/mcp-command-controller.js";
import { heldBackKeys } from "../src/native-tools.js";
import { fakeTool } from "./fake-tool.js";
import { createWorld, type World } from "./helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.cleanup();
});

const load = (options: LoadConfigsOptions = {}) =>
  loadAllMCPConfigs(world.cwd, { homeDir: world.home, env: {}, platform: "linux", ...options });

describe("reserveExa", () => {
  it("holds Exa servers back by name, url or args and hands on their keys, deduplicated", async () => {
    await world.write(world.userFile, {
      mcpServers: {
        EXA: { command: "npx", args: ["-y", "exa-mcp-server"], env: { EXA_API_KEY: "key-env" } },
        "exa-remote": { url: "https://mcp.exa.ai/mcp?exaApiKey=key%2Burl&tools=web_search" },
        "exa-proxy": { command: "npx", args: ["mcp-remote", "https://mcp.exa.ai/mcp?exaApiKey=key-env"] },
        "exa-keyless": { url: "https://MCP.EXA.AI/mcp" },
        search: { command: "brave-search" },
      },
    });
    const result = await load({ reserve: reserveExa });
    expect(result.configs).toEqual({ search: { command: "brave-search" } });
    const source: SourceMeta = {
      provider: "mcp-rt",
      providerName: "mcp-rt",
      path: world.userFile,
      level: "user",
    };
    expect(result.filtered).toEqual([
      { name: "EXA", source, reason: "exa", keys: ["key-env"] },
      { name: "exa-remote", source, reason: "exa", keys: ["key+url"] },
      { name: "exa-proxy", source, reason: "exa", keys: ["key-env"] },
      { name: "exa-keyless", source, reason: "exa", keys: [] },
    ]);
    expect(heldBackKeys(result.filtered, EXA_REASON)).toEqual(["key-env", "key+url"]);
  });

  it("takes keys after expansion, and Exa servers start like any other without the rule", async () => {
    await world.write(world.userFile, {
      mcpServers: { exa: { url: "https://mcp.exa.ai/mcp?exaApiKey=${EXA_KEY}" } },
    });
    const reserved = await load({ env: { EXA_KEY: "from-env" }, reserve: reserveExa });
    expect(heldBackKeys(reserved.filtered, EXA_REASON)).toEqual(["from-env"]);
    const kept = await load({ env: { EXA_KEY: "from-env" } });
    expect(kept.configs).toEqual({ exa: { url: "https://mcp.exa.ai/mcp?exaApiKey=from-env" } });
    expect(kept.filtered).toEqual([]);
  });

  it("does not hold back a disabled Exa server or take its key", async () => {
    await world.write(world.userFile, {
      mcpServers: { exa: { url: "https://mcp.exa.ai/mcp?exaApiKey=k", enabled: false } },
    });
    const result = await load({ reserve: reserveExa });
    expect(result.disabled.map((entry) => entry.name)).toEqual(["exa"]);
    expect(result.filtered).toEqual([]);
  });

  it("gathers only the keys of entries held back for Exa", () => {
    const source: SourceMeta = { provider: "x", providerName: "X", path: "/x.json", level: "user" };
    expect(
      heldBackKeys(
        [
          { name: "a", source, reason: "exa", keys: ["k1"] },
          { name: "b", source, reason: "other", keys: ["not-exa"] },
          { name: "c", source, reason: "exa", keys: ["k2", "k1"] },
        ],
        EXA_REASON,
      ),
    ).toEqual(["k1", "k2"]);
  });

  it("/mcp explain says the native Exa tool replaces an Exa server, without its key", async () => {
    await world.write(world.userFile, {
      mcpServers: { exa: { url: "https://mcp.exa.ai/mcp?exaApiKey=exa-secret-1" } },
    });
    const { session } = await world.start({ nativeExa: () => [fakeTool("web_search")] });
    const result = await new MCPCommandController(session).handle("/mcp explain exa");
    expect(result.text).toMatch(/Server "exa": filtered/);
    expect(result.text).toContain("uses its native Exa tool instead");
    expect(result.text).not.toContain("exa-secret-1");
  });
});

describe("a reserve rule without native tools", () => {
  it("/mcp says a held-back server is held back by the rule, naming its reason, and nothing about Exa", async () => {
    await world.write(world.userFile, { mcpServers: { search: { command: "brave-search" } } });
    const { session } = await world.start({
      discovery: { reserve: ({ name }) => (name === "search" ? { reason: "native-search" } : undefined) },
    });
    const mcp = new MCPCommandController(session);
    const list = await mcp.handle("/mcp list");
    expect(list.text).toMatch(
      /search.*filtered: held back by this session's `reserve` rule \(reason "native-search"\)/,
    );
    const enable = await mcp.handle("/mcp enable search");
    expect(enable.text).toContain(
      '– search is held back by this session\'s `reserve` rule (reason "native-search")',
    );
    expect(`${list.text}\n${enable.text}`).not.toMatch(/Exa/);
  });
});
