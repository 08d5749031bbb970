import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Static imports and re-exports, type-only ones included, and dynamic `import()`s.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

/** Every `.ts` file under `dir`, as paths relative to `root`. */
function sources(root: string, dir: string = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(root, path);
    return entry.name.endsWith(".ts") ? [relative(root, path)] : [];
  });
}

/** A package's own imports of each source file under `src`: file → the files it imports. */
export function importGraph(src: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(src)) {
    const text = readFileSync(join(src, file), "utf8");
    const targets = [...text.matchAll(SPECIFIER)].map((match) =>
      relative(src, resolve(src, dirname(file), match[1]!.replace(/\.js$/, ".ts"))),
    );
    graph.set(file, targets);
  }
  return graph;
}

/** The cycles of `graph`, each as the files along it (the first one repeated at the end). */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string): void => {
    const at = path.indexOf(node);
    if (at >= 0) {
      cycles.push([...path.slice(at), node]);
      return;
    }
    if (done.has(node)) return;
    path.push(node);
    for (const next of graph.get(node) ?? []) visit(next);
    path.pop();
    done.add(node);
  };
  for (const node of [...graph.keys()].sort()) visit(node);
  return cycles;
}

/**
 * The import-graph suite a package's test runs in one line:
 * `describeImportGraph("config", new URL("../src/", import.meta.url))`.
 * It checks that the graph reads every file and import, and that it has no cycle.
 */
export function describeImportGraph(pkg: string, src: URL): void {
  const dir = fileURLToPath(src);
  describe(`the ${pkg} package's import graph`, () => {
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

    it("reads every source file and its relative imports, type-only ones included", () => {
      const graph = importGraph(dir);
      expect(graph.get("index.ts")?.length, "index.ts re-exports its package").toBeGreaterThan(0);
      for (const [file, targets] of graph) {
        for (const target of targets) expect(graph.has(target), `${file} imports ${target}`).toBe(true);
      }
    });

    it(`has no import cycle in packages/${pkg}/src, type-only imports included`, () => {
      expect(findCycles(importGraph(dir))).toEqual([]);
    });
  });
}
