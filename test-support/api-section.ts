import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type Node, nodes, ownExports, parseModule } from "./module-exports.js";

/** The root entry's group in the README's API section. */
const ROOT = ".";

/** A subpath group's heading in the API section: "### `@mcp-rt/cache/redis`". */
const SUBPATH_HEADING = /^### `(@mcp-rt\/[\w-]+\/[\w./-]+)`/;

/** The source of an entry: `.` is `src/index.ts`, `@mcp-rt/cache/redis` is `src/redis.ts`. */
function entrySource(packageDir: URL, entry: string): URL {
  const file = entry === ROOT ? "index" : entry.split("/").slice(2).join("/");
  return new URL(`src/${file}.ts`, packageDir);
}

/** The export statements of an entry, in their order. */
function exportStatements(source: URL): Node[] {
  return parseModule(fileURLToPath(source)).body.filter((node) => node.type === "ExportNamedDeclaration");
}

/** Where an export statement takes its names from; undefined for a declaration. */
function sourceOf(statement: Node): string | undefined {
  const source = (statement.source as Node | null)?.value;
  return typeof source === "string" ? source : undefined;
}

/** Whether an export statement passes on another package's names (`from "@mcp-rt/config"`). */
function isReexport(statement: Node): boolean {
  const source = sourceOf(statement);
  return source !== undefined && !source.startsWith(".");
}

/** The names one export statement exports; `values` leaves the types out. */
function statementNames(statement: Node, values: boolean): string[] {
  const typeOnly = statement.exportKind === "type";
  const declaration = statement.declaration as Node | null;
  if (declaration) {
    if (values && typeOnly) return [];
    const id = (declaration.id as Node | undefined)?.name;
    if (typeof id === "string") return [id];
    return nodes(declaration.declarations).map((variable) => (variable.id as Node).name as string);
  }
  return nodes(statement.specifiers)
    .filter((specifier) => !values || (!typeOnly && specifier.exportKind !== "type"))
    .map((specifier) => (specifier.exported as Node).name as string);
}

/**
 * Every name an entry of a package exports, types included; `values` leaves
 * the types out. `entry` is `.` (the root, `src/index.ts`) or a subpath
 * (`@mcp-rt/cache/redis`, `src/redis.ts`).
 */
export function exportedNames(packageDir: URL, options: { entry?: string; values?: boolean } = {}): string[] {
  const statements = exportStatements(entrySource(packageDir, options.entry ?? ROOT));
  return statements.flatMap((statement) => statementNames(statement, options.values ?? false));
}

/**
 * The groups of a package README's "API" section: the root entry's (`.`),
 * and one per subpath, from a heading "### `@mcp-rt/<package>/<subpath>`" to
 * the next such heading or the section's end. Undefined when the README has
 * no such section.
 */
async function apiGroups(packageDir: URL): Promise<Map<string, string> | undefined> {
  const readme = await readFile(new URL("README.md", packageDir), "utf8");
  const section = /\n## API\n([\s\S]*?)(?:\n## |$)/.exec(readme)?.[1];
  if (section === undefined) return undefined;
  const groups = new Map<string, string>([[ROOT, ""]]);
  let group = ROOT;
  for (const line of section.split("\n")) {
    group = SUBPATH_HEADING.exec(line)?.[1] ?? group;
    groups.set(group, `${groups.get(group) ?? ""}${line}\n`);
  }
  return groups;
}

/**
 * The names a package README's "API" section lists for one entry (`.` or a
 * subpath): in each bullet of its group, the names in backticks before the
 * first ": " (what follows is a description), a call's name included
 * (`` `listTools(connection, options?)` `` lists `listTools`). Undefined when
 * the README has no such section or group.
 */
export async function documentedNames(packageDir: URL, entry: string = ROOT): Promise<string[] | undefined> {
  const group = (await apiGroups(packageDir))?.get(entry);
  if (group === undefined) return undefined;
  const bullets = group.split(/^- /m).slice(1);
  return bullets.flatMap((bullet) => {
    const names = bullet.replace(/\n\s*/g, " ").split(": ")[0]!;
    return [...names.matchAll(/`(?:new )?([A-Za-z_][A-Za-z0-9_]*)(?:`|\()/g)].map((match) => match[1]!);
  });
}

/**
 * What is out of order in an entry: its own names come first, and the names
 * it passes on from other packages last, under one comment; a name of another
 * package passed on through one of the package's own modules is hidden.
 */
export function exportOrderProblems(packageDir: URL, entry: string = ROOT): string[] {
  const source = entrySource(packageDir, entry);
  const statements = exportStatements(source);
  const problems: string[] = [];
  const first = statements.findIndex(isReexport);
  if (first >= 0) {
    const after = statements.slice(first).filter((statement) => !isReexport(statement));
    for (const statement of after) {
      problems.push(`own names after the re-exports: ${statementNames(statement, false).join(", ")}`);
    }
    const from = first > 0 ? statements[first - 1]!.end : 0;
    const { comments } = parseModule(fileURLToPath(source));
    if (!comments.some((comment) => comment.start >= from && comment.end <= statements[first]!.start)) {
      problems.push("no comment above the re-exports");
    }
  }
  for (const [name, declaration] of ownExports(source)) {
    if (!declaration) problems.push(`${name} is another package's: export it with the re-exports`);
  }
  return problems;
}

/** Options of {@link describeApiSection}. */
export interface ApiSectionOptions {
  /** The package's folder: `new URL("../", import.meta.url)` from its test. */
  packageDir: URL;
  /** The package's root entry, loaded: `import * as config from "../src/index.js"`. */
  entry: Record<string, unknown>;
  /** Names that must stay out of the root entry (internals a user should not reach). */
  internals: readonly string[];
  /**
   * The package's other public entries, loaded, by subpath
   * (`{ "@mcp-rt/cache/redis": redis }`): each has its own group in the API
   * section, under the heading "### `@mcp-rt/cache/redis`".
   */
  subpaths?: Record<string, Record<string, unknown>>;
}

/**
 * The suite that keeps each public entry of a package equal to its group in
 * the README's API section, each name once, with the entry's own names first
 * and its re-exports last.
 */
export function describeApiSection(options: ApiSectionOptions): void {
  const { packageDir } = options;
  const entries: [string, Record<string, unknown>][] = [
    [ROOT, options.entry],
    ...Object.entries(options.subpaths ?? {}),
  ];
  describe("the public API is the curated list in the README", () => {
    for (const [entry, loaded] of entries) {
      const label = entry === ROOT ? "the root entry" : entry;

      it(`${label} exports exactly the names its README group lists, each once`, async () => {
        const exported = exportedNames(packageDir, { entry });
        const documented = await documentedNames(packageDir, entry);
        expect(documented, `README.md has an API group for ${label}`).toBeDefined();
        expect(
          exported.filter((name, at) => exported.indexOf(name) !== at),
          "a name has one import path",
        ).toEqual([]);
        expect([...exported].sort()).toEqual([...documented!].sort());
      });

      it(`every value ${label} lists exists at run time`, () => {
        for (const name of exportedNames(packageDir, { entry, values: true })) {
          expect(loaded, name).toHaveProperty(name);
        }
      });

      it(`${label} lists its own names first and its re-exports last, under one comment`, () => {
        expect(exportOrderProblems(packageDir, entry)).toEqual([]);
      });
    }

    it("the README's API section has a group only for the entries checked here", async () => {
      const groups = [...((await apiGroups(packageDir))?.keys() ?? [])];
      expect(groups.sort()).toEqual(entries.map(([entry]) => entry).sort());
    });

    it("keeps the internals out of the root entry", () => {
      for (const internal of options.internals) expect(options.entry).not.toHaveProperty(internal);
    });
  });
}
