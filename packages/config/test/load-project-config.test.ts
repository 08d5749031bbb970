import type { CapabilitySource } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { sourceMeta, useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

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
    expect(off.sources.shared).toEqual(sourceMeta("cursor", "Cursor", userFile, "user"));
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
              source: sourceMeta("careless", "Careless", "/p.json", "project"),
            },
            {
              name: "u",
              config: { command: "u" },
              source: sourceMeta("careless", "Careless", "/u.json", "user"),
            },
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
