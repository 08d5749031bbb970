import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

/** Every name a package's `src/index.ts` exports, types included; `values` leaves the types out. */
export async function exportedNames(packageDir: URL, options: { values?: boolean } = {}): Promise<string[]> {
  const source = await readFile(new URL("src/index.ts", packageDir), "utf8");
  const statement = options.values
    ? /export\s+\{([^}]*)\}\s*from/g
    : /export\s+(?:type\s+)?\{([^}]*)\}\s*from/g;
  return [...source.matchAll(statement)].flatMap((match) =>
    match[1]!
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

/**
 * The names a package README's "API" section lists: in each bullet, the names
 * in backticks before the first ": " (what follows is a description).
 * Undefined when the README has no such section.
 */
export async function documentedNames(packageDir: URL): Promise<string[] | undefined> {
  const readme = await readFile(new URL("README.md", packageDir), "utf8");
  const section = /\n## API\n([\s\S]*?)(?:\n## |$)/.exec(readme)?.[1];
  if (section === undefined) return undefined;
  const bullets = section.split(/^- /m).slice(1);
  return bullets.flatMap((bullet) => {
    const names = bullet.replace(/\n\s*/g, " ").split(": ")[0]!;
    return [...names.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((match) => match[1]!);
  });
}

/** Options of {@link describeApiSection}. */
export interface ApiSectionOptions {
  /** The package's folder: `new URL("../", import.meta.url)` from its test. */
  packageDir: URL;
  /** The package's root entry, loaded: `import * as config from "../src/index.js"`. */
  entry: Record<string, unknown>;
  /** Names that must stay out of the root entry (internals a user should not reach). */
  internals: readonly string[];
}

/** The suite that keeps a package's root entry equal to its README's API section, each name once. */
export function describeApiSection(options: ApiSectionOptions): void {
  const { packageDir, entry } = options;
  describe("the public API is the curated list in the README", () => {
    it("exports exactly the names the README's API section lists, each once", async () => {
      const exported = await exportedNames(packageDir);
      const documented = await documentedNames(packageDir);
      expect(documented, "README.md has an API section").toBeDefined();
      expect(
        exported.filter((name, at) => exported.indexOf(name) !== at),
        "a name has one import path",
      ).toEqual([]);
      expect([...exported].sort()).toEqual([...documented!].sort());
    });

    it("every value the README lists exists at run time", async () => {
      for (const name of await exportedNames(packageDir, { values: true })) {
        expect(entry, name).toHaveProperty(name);
      }
    });

    it("keeps the internals out of the root entry", () => {
      for (const internal of options.internals) expect(entry).not.toHaveProperty(internal);
    });
  });
}
