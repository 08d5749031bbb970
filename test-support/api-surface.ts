import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** Every name an entry file exports (`export { … } from`), types included, or values only. */
export function exportedNames(source: string, { valuesOnly = false } = {}): string[] {
  const pattern = valuesOnly ? /export\s+\{([^}]*)\}\s*from/g : /export\s+(?:type\s+)?\{([^}]*)\}\s*from/g;
  return [...source.matchAll(pattern)].flatMap((match) =>
    match[1]!
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

/**
 * The names a README's "API" section lists: in each bullet, the names in
 * backticks before the first ": " (what follows is a description).
 */
export function documentedNames(readme: string): string[] {
  const section = /\n## API\n([\s\S]*?)(?:\n## |$)/.exec(readme)?.[1];
  if (section === undefined) throw new Error('the README has no "## API" section');
  const bullets = section.split(/^- /m).slice(1);
  return bullets.flatMap((bullet) => {
    const names = bullet.replace(/\n\s*/g, " ").split(": ")[0]!;
    return [...names.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((match) => match[1]!);
  });
}

/**
 * The suite that keeps a package's face and its README's API section equal:
 * `describeApiSurface(new URL("../", import.meta.url), await import("../src/index.js"))`.
 */
export function describeApiSurface(packageDir: URL, entry: object): void {
  const source = readFileSync(new URL("src/index.ts", packageDir), "utf8");
  const readme = readFileSync(new URL("README.md", packageDir), "utf8");
  describe("the public API is the curated list in the README", () => {
    it("reads the names of an index and of an API section (the check can fail)", () => {
      const index = 'export type { A, B } from "./a.js";\nexport { c } from "./c.js";\n';
      expect(exportedNames(index)).toEqual(["A", "B", "c"]);
      expect(exportedNames(index, { valuesOnly: true })).toEqual(["c"]);
      const api = "\n## API\n\nIntro `x`.\n- `A`, `B`: the `c` helper\n- `c`\n\n## Next\n- `D`\n";
      expect(documentedNames(api)).toEqual(["A", "B", "c"]);
      expect(() => documentedNames("# no API\n")).toThrow(/API/);
    });

    it("exports exactly the names the README's API section lists, each once", () => {
      const exported = exportedNames(source);
      expect(new Set(exported).size, "a name exported twice").toBe(exported.length);
      expect(exported.sort()).toEqual(documentedNames(readme).sort());
    });

    it("every value the index exports exists at run time", () => {
      for (const name of exportedNames(source, { valuesOnly: true }))
        expect(entry, name).toHaveProperty(name);
    });
  });
}
