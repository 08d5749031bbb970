import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importGraph } from "../../../test-support/import-graph.js";

/**
 * One floor of a package: its rooms, each a list of files and folders
 * (a folder ends in `/`). A file may import its own room and any floor
 * below; the rooms of one floor do not import each other.
 */
type Floor = readonly (readonly string[])[];

/**
 * The manager's floors, top first (docs/architecture.md, "The life of one
 * server"). A part is handed narrow views by the one above it, never its
 * parent, so no import runs back up.
 */
const FLOORS: readonly Floor[] = [
  // The facade and its glue: nothing under it imports it.
  [["index.ts", "mcp-manager.ts", "manager-cache.ts", "discover-and-load.ts"]],
  // Every server together: it makes the supervisors and the catalog and wires one to the other.
  [["fleet/"]],
  // What a model sees, and one server: each reads the other only through views the fleet hands it.
  [["tools/"], ["server/"]],
  // The ground: the public vocabulary, the client loader, small helpers every floor may use.
  [
    [
      "abortable.ts",
      "client-module.ts",
      "coalesced-task.ts",
      "event-emitter.ts",
      "load-problem.ts",
      "manager-types.ts",
      "result-limits.ts",
    ],
  ],
  // Approved tool definitions: pure judgement over definitions and the cache's store, below everything that uses it.
  [["approvals/"]],
];

/** Where `file` lives: its floor (0 is the top) and its room there; `undefined` when no room names it. */
function placeOf(file: string, floors: readonly Floor[]): { floor: number; room: number } | undefined {
  for (const [floor, rooms] of floors.entries()) {
    for (const [room, names] of rooms.entries()) {
      if (names.some((name) => (name.endsWith("/") ? file.startsWith(name) : file === name))) {
        return { floor, room };
      }
    }
  }
  return undefined;
}

/**
 * The imports of `graph` (file → the files it imports) that run back up a
 * floor or across to another room of the same floor, as `from → to`; a file
 * no room names, as `file → (no floor)`.
 */
function backArrows(graph: ReadonlyMap<string, readonly string[]>, floors: readonly Floor[]): string[] {
  const arrows: string[] = [];
  for (const [file, targets] of graph) {
    const from = placeOf(file, floors);
    if (!from) {
      arrows.push(`${file} → (no floor)`);
      continue;
    }
    for (const target of targets) {
      const to = placeOf(target, floors);
      if (!to) continue;
      const up = to.floor < from.floor;
      const across = to.floor === from.floor && to.room !== from.room;
      if (up || across) arrows.push(`${file} → ${target}`);
    }
  }
  return arrows;
}

describe("backArrows", () => {
  it("finds an import up a floor, or across to another room, when there is one (the check can fail)", () => {
    const floors: Floor[] = [[["top.ts"]], [["a/"], ["b/"]], [["ground.ts"]]];
    const graph = new Map([
      ["top.ts", ["a/x.ts", "ground.ts"]],
      ["a/x.ts", ["a/y.ts", "ground.ts"]],
      ["a/y.ts", ["top.ts"]],
      ["b/z.ts", ["a/x.ts"]],
      ["ground.ts", []],
      ["stray.ts", []],
    ]);
    expect(backArrows(graph, floors)).toEqual([
      "a/y.ts → top.ts",
      "b/z.ts → a/x.ts",
      "stray.ts → (no floor)",
    ]);
    expect(backArrows(new Map([["top.ts", ["a/x.ts"]]]), floors)).toEqual([]);
  });
});

describe("the manager's floors", () => {
  const src = fileURLToPath(new URL("../src/", import.meta.url));

  it("places every source file on a floor, and no import runs back up one, type-only imports included", () => {
    const graph = importGraph(src);
    expect(graph.size).toBeGreaterThan(20);
    expect(backArrows(graph, FLOORS)).toEqual([]);
  });
});
