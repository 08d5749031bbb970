import { type CapabilitySource, createNativeSource, type DiscoveryContext } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { sourceMeta, useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

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
          {
            name: "good",
            config: { command: "g" },
            source: sourceMeta("custom", "Custom", "/c.json", "user"),
          },
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
