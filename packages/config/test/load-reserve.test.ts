// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are what these tests are about
import { describe, expect, it } from "vitest";
import { sourceMeta, useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

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
    const source = sourceMeta("mcp-rt", "mcp-rt", file, "user");
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
