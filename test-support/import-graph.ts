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

/** A package's own imports of each source file under `src`: file → the files it imports (paths relative to `src`). */
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

/** Options of {@link importGraphTests}. */
export interface ImportGraphTestsOptions {
  /** Who the package is, in the tests' names: `the manager`. */
  name: string;
  /** The package's `src` folder. */
  src: URL;
  /** A file that imports several others, to show the graph was read: `index.ts`. */
  entry: string;
  /** At least this many source files. */
  minFiles: number;
}

/** The tests that keep a package free of import cycles, type-only imports included. */
export function importGraphTests(options: ImportGraphTestsOptions): void {
  const src = fileURLToPath(options.src);
  describe(`${options.name}'s import graph`, () => {
    it("reads every source file and its relative imports, type-only ones included", () => {
      const graph = importGraph(src);
      expect(graph.size).toBeGreaterThan(options.minFiles);
      expect(graph.get(options.entry)?.length).toBeGreaterThan(3);
      for (const [file, targets] of graph) {
        for (const target of targets) expect(graph.has(target), `${file} imports ${target}`).toBe(true);
      }
    });

    it("has no import cycle, type-only imports included", () => {
      expect(findCycles(importGraph(src))).toEqual([]);
    });
  });
}
