import { describe, expect, it, vi } from "vitest";
import { fakeTool } from "./fake-tool.js";

// Counts the synonym tables built, around the real one.
const built = vi.hoisted(() => ({ count: 0 }));
vi.mock("../src/tool-synonyms.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../src/tool-synonyms.js")>();
  return {
    ...actual,
    synonymTable: (stem: (word: string) => string) => {
      built.count += 1;
      return actual.synonymTable(stem);
    },
  };
});

describe("the tool index's synonym table", () => {
  it("is built by the first search, once, not when the module loads (every start loads it)", async () => {
    const { ToolIndex } = await import("../src/tool-index.js");
    const index = new ToolIndex([{ tool: fakeTool("erase_file"), server: "files" }]);
    expect(built.count).toBe(0);

    // "delete" finds "erase" only through the table.
    expect(index.search("delete").map((hit) => hit.tool.name)).toEqual(["erase_file"]);
    expect(built.count).toBe(1);
    index.search("remove");
    new ToolIndex([{ tool: fakeTool("forget_note"), server: "notes" }]).search("delete");
    expect(built.count).toBe(1);
  });
});
