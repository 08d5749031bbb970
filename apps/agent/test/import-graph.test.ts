import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findCycles, importGraph } from "../../../test-support/import-graph.js";

const src = fileURLToPath(new URL("../src/", import.meta.url));

describe("the agent's import graph", () => {
  it("reads every source file and its relative imports, type-only ones included", () => {
    const graph = importGraph(src);
    expect(graph.size).toBeGreaterThan(15);
    expect(graph.get("main.ts")?.length).toBeGreaterThan(3);
    for (const [file, targets] of graph) {
      for (const target of targets) expect(graph.has(target), `${file} imports ${target}`).toBe(true);
    }
  });

  it("has no import cycle in apps/agent/src, type-only imports included", () => {
    expect(findCycles(importGraph(src))).toEqual([]);
  });
});
