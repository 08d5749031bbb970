import { type CustomTool, McpRtError } from "@mcp-rt/manager";
import { toolRegistryContractTests } from "@mcp-rt/session/contract";
import { describe, expect, it } from "vitest";
import { createToolRegistry, type ToolRegistry } from "../src/tool-registry.js";
import { fakeTool } from "./fake-tool.js";

describe("createToolRegistry (contract)", () => {
  toolRegistryContractTests(it, () => createToolRegistry());
});

describe("createToolRegistry", () => {
  it("refuses a second tool under a taken name with McpRtError TOOL_NAME_TAKEN naming both tools", () => {
    const registry = createToolRegistry();
    const first = { ...fakeTool("search"), label: "web/search" };
    registry.add(first);
    let thrown: unknown;
    try {
      registry.add({ ...fakeTool("search"), label: "docs/search" });
    } catch (error) {
      thrown = error;
    }
    expect(McpRtError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: "TOOL_NAME_TAKEN", details: { name: "search" } });
    expect((thrown as Error).message).toContain("docs/search");
    expect((thrown as Error).message).toContain("web/search");
    expect(registry.list()).toEqual([first]);
  });

  it("removes thousands of active tools in linear time (removal does not re-scan the active list)", () => {
    const registry = createToolRegistry();
    const tools = Array.from({ length: 20_000 }, (_, i) => ({ ...fakeTool(`t${i}`), label: `fake/t${i}` }));
    for (const tool of tools) registry.add(tool);
    registry.setActive(tools.map((tool) => tool.name));
    const started = performance.now();
    for (const tool of tools) registry.remove(tool);
    const ms = performance.now() - started;
    expect(registry.active()).toEqual([]);
    expect(registry.list()).toEqual([]);
    // Linear: a few ms. Re-filtering the active list per removal: 2e8 comparisons, seconds.
    expect(ms).toBeLessThan(400);
  });

  it("keeps activation order after removals", () => {
    const registry = createToolRegistry();
    const [a, b, c] = [fakeTool("a"), fakeTool("b"), fakeTool("c")];
    for (const tool of [a, b, c]) registry.add(tool);
    registry.setActive(["c", "a", "b", "a", "missing"]);
    registry.remove(a);
    expect(registry.active()).toEqual(["c", "b"]);
  });
});

describe("toolRegistryContractTests", () => {
  async function failuresAgainst(makeRegistry: () => ToolRegistry): Promise<string[]> {
    const cases: Array<{ name: string; fn: () => void | Promise<void> }> = [];
    toolRegistryContractTests((name, fn) => cases.push({ name, fn }), makeRegistry);
    const failed: string[] = [];
    for (const { name, fn } of cases) {
      try {
        await fn();
      } catch {
        failed.push(name);
      }
    }
    return failed;
  }

  it("passes every case for the default registry", async () => {
    expect(await failuresAgainst(createToolRegistry)).toEqual([]);
  });

  it("catches a registry that removes by name instead of identity", async () => {
    const byName = (): ToolRegistry => {
      const inner = createToolRegistry();
      return {
        ...inner,
        remove(tool) {
          const same = inner.list().find((entry) => entry.name === tool.name);
          if (same) inner.remove(same);
        },
      };
    };
    expect(await failuresAgainst(byName)).toContain("removes by identity, not by name");
  });

  it("catches a registry that activates on add or leaks its internal arrays", async () => {
    const leaky = (): ToolRegistry => {
      const tools: CustomTool[] = [];
      const active: string[] = [];
      return {
        add: (tool) => {
          tools.push(tool);
          active.push(tool.name);
        },
        remove: (tool) => {
          tools.splice(tools.indexOf(tool), 1);
        },
        list: () => tools,
        setActive: (names) => active.splice(0, active.length, ...names),
        active: () => active,
      };
    };
    const failed = await failuresAgainst(leaky);
    expect(failed).toContain("does not activate a tool when adding it");
    expect(failed).toContain("returns copies from list() and active()");
    expect(failed).toContain("throws when a different tool takes a registered name, keeping the first");
  });
});
