import assert from "node:assert/strict";
import type { CustomTool, ToolResult } from "@mcp-rt/manager";
import type { ToolRegistry } from "./tool-registry.js";

/** The `it` (or `test`) function of any test runner: vitest, jest, `node:test`. */
export type ContractIt = (name: string, fn: () => void | Promise<void>) => unknown;

function makeTool(name: string): CustomTool {
  return {
    name,
    label: `test/${name}`,
    description: `contract tool ${name}`,
    parameters: { type: "object", properties: {} },
    async execute(): Promise<ToolResult> {
      return {
        content: [{ type: "text", text: name }],
        details: { serverName: "test", mcpToolName: name, isError: false, rawContent: [] },
      };
    },
  };
}

/**
 * The {@link ToolRegistry} contract: run it against your own registry to prove
 * that `refreshMCPTools` can drive it. Uses `node:assert`, so it works with any
 * runner.
 *
 * @param it - your runner's `it`/`test`.
 * @param makeRegistry - returns a fresh, empty registry for each case.
 *
 * @example
 * ```ts
 * import { it } from "vitest";
 * import { toolRegistryContractTests } from "@mcp-rt/session/contract";
 * toolRegistryContractTests(it, () => createMyRegistry());
 * ```
 */
export function toolRegistryContractTests(
  it: ContractIt,
  makeRegistry: () => ToolRegistry | Promise<ToolRegistry>,
): void {
  it("starts empty", async () => {
    const registry = await makeRegistry();
    assert.deepEqual(registry.list(), []);
    assert.deepEqual(registry.active(), []);
  });

  it("lists added tools in registration order, by identity", async () => {
    const registry = await makeRegistry();
    const a = makeTool("a");
    const b = makeTool("b");
    registry.add(b);
    registry.add(a);
    const listed = registry.list();
    assert.equal(listed.length, 2);
    assert.equal(listed[0], b);
    assert.equal(listed[1], a);
  });

  it("does not activate a tool when adding it", async () => {
    const registry = await makeRegistry();
    registry.add(makeTool("a"));
    assert.deepEqual(registry.active(), []);
  });

  it("treats adding the same object twice as a no-op", async () => {
    const registry = await makeRegistry();
    const a = makeTool("a");
    registry.add(a);
    registry.add(a);
    assert.equal(registry.list().length, 1);
  });

  it("throws when a different tool takes a registered name, keeping the first", async () => {
    const registry = await makeRegistry();
    const first = makeTool("a");
    registry.add(first);
    assert.throws(() => registry.add(makeTool("a")));
    assert.deepEqual(registry.list(), [first]);
  });

  it("removes by identity, not by name", async () => {
    const registry = await makeRegistry();
    const a = makeTool("a");
    registry.add(a);
    registry.setActive(["a"]);
    registry.remove(makeTool("a"));
    assert.deepEqual(registry.list(), [a]);
    assert.deepEqual(registry.active(), ["a"]);
    registry.remove(a);
    assert.deepEqual(registry.list(), []);
  });

  it("drops a removed tool from the active set", async () => {
    const registry = await makeRegistry();
    const a = makeTool("a");
    const b = makeTool("b");
    registry.add(a);
    registry.add(b);
    registry.setActive(["a", "b"]);
    registry.remove(a);
    assert.deepEqual(registry.active(), ["b"]);
    registry.add(a);
    assert.deepEqual(registry.active(), ["b"], "re-adding does not re-activate");
  });

  it("ignores removing a tool that was never added", async () => {
    const registry = await makeRegistry();
    registry.remove(makeTool("ghost"));
    assert.deepEqual(registry.list(), []);
  });

  it("replaces the active set, keeping order, ignoring unknown names and duplicates", async () => {
    const registry = await makeRegistry();
    for (const name of ["a", "b", "c"]) registry.add(makeTool(name));
    registry.setActive(["c", "a", "zzz", "c"]);
    assert.deepEqual(registry.active(), ["c", "a"]);
    registry.setActive(["b"]);
    assert.deepEqual(registry.active(), ["b"]);
    registry.setActive([]);
    assert.deepEqual(registry.active(), []);
  });

  it("returns copies from list() and active()", async () => {
    const registry = await makeRegistry();
    registry.add(makeTool("a"));
    registry.setActive(["a"]);
    registry.list().pop();
    registry.active().pop();
    assert.equal(registry.list().length, 1);
    assert.deepEqual(registry.active(), ["a"]);
  });

  it("lets a removed name be registered again by a new tool", async () => {
    const registry = await makeRegistry();
    const old = makeTool("a");
    const replacement = makeTool("a");
    registry.add(old);
    registry.remove(old);
    registry.add(replacement);
    assert.deepEqual(registry.list(), [replacement]);
  });
}
