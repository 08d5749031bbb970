import { describe, expect, it } from "vitest";
import { findCycles, importGraphTests } from "../../../test-support/import-graph.js";

describe("findCycles", () => {
  it("finds a cycle when there is one (the check can fail)", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(findCycles(graph)).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
    expect(findCycles(new Map([["a.ts", ["b.ts"]]]))).toEqual([]);
  });
});

importGraphTests({
  name: "the manager",
  src: new URL("../src/", import.meta.url),
  entry: "index.ts",
  minFiles: 20,
});
