// The map (docs/architecture.md) is the door to the code; this test keeps the names in it true.
//
// How the map's names are read:
// - "Follow one server" is a table whose rows are `| <n> | <stop> | `<file>` | `<function>` |`: the file
//   is written from the repository root, and must declare the function: `name` (a function, class,
//   const or method), or `Class.method` / `Class.#method` (a method of that class).
// - Any other backticked path ending in .ts, .mjs or .md must exist. In a section whose `##` heading
//   names a package folder (`packages/<name>/`, `apps/<name>/`), it is read against that folder's
//   `src/`, then the folder, then the repository root. Elsewhere it is read from the repository root,
//   or else it must name exactly one file among the `src/` and root folders of the packages, the apps
//   and the bench: a short name two packages share is ambiguous and fails. A backticked text with
//   anything but path characters (`sources/<client>.ts`) is a pattern, not a path.
// - Every relative link target exists (read from docs/).
// - Every source file past LONG_FILE_LINES lines is named in the map by its path from the root.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MAP_PATH = join(ROOT, "docs", "architecture.md");

/** Past this many lines a source file must be named in the map, with why. */
const LONG_FILE_LINES = 300;

/** The fewest stops "Follow one server" may have: a path from config to close is about a dozen. */
const MIN_STOPS = 12;

/** One stop of "Follow one server". */
interface Stop {
  /** The row's number as written (`9a`). */
  id: string;
  /** The file, from the repository root. */
  file: string;
  /** `name`, `Class.method` or `Class.#method`. */
  name: string;
}

/** A backticked path of the map, with the package folder of the section it stands in. */
interface PathMention {
  path: string;
  line: number;
  base: string | undefined;
}

/** A source file and its line count. */
interface SourceFile {
  path: string;
  lines: number;
}

const PATH = /^[\w.@/-]+\.(?:ts|mjs|md)$/;
const CODE = /`([^`\n]+)`/g;
const HEADING_BASE = /^## .*`((?:packages|apps)\/[\w.-]+)\/`/;

/** The lines of the `##` section titled `title`, without its heading. */
function section(map: string, title: string): string[] {
  const lines = map.split("\n");
  const start = lines.findIndex((line) => line.trim() === `## ${title}`);
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && line.startsWith("## "));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The stops of "Follow one server", in their order. */
function parseStops(map: string): Stop[] {
  const stops: Stop[] = [];
  for (const line of section(map, "Follow one server")) {
    const cells = line.split("|").map((cell) => cell.trim());
    // A row is `| n | stop | file | function |`: five cells and empty ends once split on `|`.
    if (cells.length !== 6 || !/^\d+[a-z]?$/.test(cells[1] ?? "")) continue;
    const file = /^`([^`]+)`$/.exec(cells[3] ?? "")?.[1];
    const name = /^`([^`]+)`$/.exec(cells[4] ?? "")?.[1];
    stops.push({ id: cells[1] ?? "", file: file ?? "", name: name ?? "" });
  }
  return stops;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A method, getter or field `name` declared at the start of a line (a class member). */
function memberPattern(name: string): RegExp {
  const modifiers = "(?:(?:static|async|get|set|override|readonly)\\s+)*";
  return new RegExp(`^\\s+${modifiers}\\*?${escapeRegExp(name)}\\s*(?:<[^>\\n]*>)?\\s*[(=:]`, "m");
}

/** Whether `source` declares `name`: a function, class, const, or `Class.member`. */
function declares(source: string, name: string): boolean {
  const dot = name.indexOf(".");
  if (dot >= 0) {
    const owner = name.slice(0, dot);
    const member = name.slice(dot + 1);
    const start = new RegExp(`\\bclass\\s+${escapeRegExp(owner)}\\b`).exec(source);
    if (!start) return false;
    const rest = source.slice(start.index + start[0].length);
    const next = /^(?:export\s+)?(?:abstract\s+)?class\s/m.exec(rest);
    return memberPattern(member).test(next ? rest.slice(0, next.index) : rest);
  }
  const declaration = new RegExp(
    `(?:\\bfunction\\s*\\*?\\s*|\\bclass\\s+|\\b(?:const|let|var)\\s+)${escapeRegExp(name)}\\b`,
  );
  return declaration.test(source) || memberPattern(name).test(source);
}

/** What is wrong with the stops of `map`: a missing file, a function it no longer declares. */
function checkStops(map: string, root: string = ROOT): string[] {
  const problems: string[] = [];
  for (const stop of parseStops(map)) {
    if (!stop.file || !stop.name) {
      problems.push(`stop ${stop.id}: write the file and the function in backticks`);
      continue;
    }
    const path = join(root, stop.file);
    if (!existsSync(path) || !statSync(path).isFile()) {
      problems.push(`stop ${stop.id}: ${stop.file} does not exist`);
      continue;
    }
    if (!declares(readFileSync(path, "utf8"), stop.name)) {
      problems.push(`stop ${stop.id}: ${stop.file} does not declare ${stop.name}`);
    }
  }
  return problems;
}

/** Every backticked path of `map` outside code blocks, with the package folder of its section. */
function pathMentions(map: string): PathMention[] {
  const mentions: PathMention[] = [];
  let base: string | undefined;
  let fenced = false;
  for (const [index, line] of map.split("\n").entries()) {
    if (line.startsWith("```")) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (line.startsWith("## ")) base = HEADING_BASE.exec(line)?.[1];
    for (const match of line.matchAll(CODE)) {
      const path = match[1] ?? "";
      if (PATH.test(path)) mentions.push({ path, line: index + 1, base });
    }
  }
  return mentions;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** The folders a short name may belong to: each package, each app, the bench and the docs. */
function projectFolders(root: string): string[] {
  const inside = (parent: string) =>
    readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name));
  return [...inside("packages"), ...inside("apps"), "bench", "docs"];
}

/** Where `mention` points to, or why it points nowhere. */
function resolveMention(mention: PathMention, root: string = ROOT): { file: string } | { problem: string } {
  const { path, base } = mention;
  if (base) {
    for (const candidate of [join(base, "src", path), join(base, path), path]) {
      if (isFile(join(root, candidate))) return { file: candidate };
    }
    return { problem: `${path} (line ${mention.line}) is not in ${base}/ nor from the repository root` };
  }
  if (isFile(join(root, path))) return { file: path };
  const found = projectFolders(root)
    .flatMap((folder) => [join(folder, "src", path), join(folder, path)])
    .filter((candidate) => isFile(join(root, candidate)));
  if (found.length === 1 && found[0]) return { file: found[0] };
  if (found.length === 0) return { problem: `${path} (line ${mention.line}) does not exist` };
  return {
    problem: `${path} (line ${mention.line}) is ambiguous (${found.join(", ")}): write it from the root`,
  };
}

/** What is wrong with the backticked paths of `map`. */
function checkPaths(map: string, root: string = ROOT): string[] {
  return pathMentions(map).flatMap((mention) => {
    const resolved = resolveMention(mention, root);
    return "problem" in resolved ? [resolved.problem] : [];
  });
}

/** What is wrong with the relative links of `map`, a file in `dir` (a path from the root). */
function checkLinks(map: string, dir: string, root: string = ROOT): string[] {
  const problems: string[] = [];
  for (const match of map.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = (match[1] ?? "").split("#")[0] ?? "";
    if (!target || /^[a-z]+:/i.test(target)) continue;
    if (!existsSync(join(root, dir, target))) problems.push(`link ${match[1]} does not exist`);
  }
  return problems;
}

/** The source files of the packages, the apps and the bench, with their line counts. */
function sourceFiles(root: string): SourceFile[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith(".ts") ? [path] : [];
    });
  return projectFolders(root)
    .filter((folder) => existsSync(join(root, folder, "src")))
    .flatMap((folder) => walk(join(folder, "src")))
    .map((path) => ({ path, lines: readFileSync(join(root, path), "utf8").split("\n").length - 1 }));
}

/** The files of `files` past `limit` lines that `map` does not name (in backticks, from the root). */
function checkLongFiles(map: string, files: readonly SourceFile[], limit: number): string[] {
  return files
    .filter((file) => file.lines > limit && !map.includes(`\`${file.path}\``))
    .map((file) => `${file.path} has ${file.lines} lines and is not named in the map with why`);
}

describe("the map (docs/architecture.md)", () => {
  const map = readFileSync(MAP_PATH, "utf8");

  it("is short enough to read in one sitting", () => {
    expect(map.split("\n").length).toBeLessThanOrEqual(600);
  });

  it("opens with one server's path, a dozen stops or more, each a file and a function", () => {
    expect(map.indexOf("## Follow one server")).toBe(map.indexOf("## "));
    const stops = parseStops(map);
    expect(stops.length).toBeGreaterThanOrEqual(MIN_STOPS);
    expect(checkStops(map)).toEqual([]);
  });

  it("names only files that exist", () => {
    expect(pathMentions(map).length).toBeGreaterThan(100);
    expect(checkPaths(map)).toEqual([]);
  });

  it("links only to files that exist", () => {
    expect(checkLinks(map, relative(ROOT, dirname(MAP_PATH)))).toEqual([]);
  });

  it("names every source file past 300 lines", () => {
    expect(checkLongFiles(map, sourceFiles(ROOT), LONG_FILE_LINES)).toEqual([]);
  });
});

describe("the map's checks", () => {
  const planted = [
    "# A map",
    "",
    "## Follow one server",
    "",
    "| # | stop | file | function |",
    "|---|---|---|---|",
    "| 1 | a stop that holds | `packages/manager/src/mcp-manager.ts` | `MCPManager.connectServers` |",
    "| 2 | a file gone | `packages/manager/src/no-such-file.ts` | `connectServers` |",
    "| 3 | a method gone | `packages/manager/src/mcp-manager.ts` | `MCPManager.noSuchMethod` |",
    "| 4 | a function gone | `packages/client/src/call-tool.ts` | `callToolTwice` |",
    "| 5 | a private method that holds | `packages/manager/src/server/server-supervisor.ts` | `ServerSupervisor.#commit` |",
    "| 6 | a generator that holds | `packages/manager/src/server/connect-and-list.ts` | `connectAndList` |",
    "",
    "## The manager: `packages/manager/`",
    "",
    "`fleet/fleet.ts` holds, `fleet/no-such-fleet.ts` does not, `sources/<client>.ts` is a pattern.",
    "",
    "```",
    "`in-a-code-block.ts` is not read",
    "```",
    "",
    "## Elsewhere",
    "",
    "`stdio/stdio-era.ts` is the client's alone; `contract.ts` is three packages'; `gone.md` is nobody's.",
    "[a link](../nowhere.md), [another](../README.md), [a page](https://example.com/x.md).",
  ].join("\n");

  it("find a file gone, and a function, method or class a file no longer declares", () => {
    expect(parseStops(planted).map((stop) => stop.id)).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(checkStops(planted)).toEqual([
      "stop 2: packages/manager/src/no-such-file.ts does not exist",
      "stop 3: packages/manager/src/mcp-manager.ts does not declare MCPManager.noSuchMethod",
      "stop 4: packages/client/src/call-tool.ts does not declare callToolTwice",
    ]);
  });

  it("read a path against its section's package, else from the root or one package alone", () => {
    expect(pathMentions(planted).map((mention) => mention.path)).toEqual([
      "packages/manager/src/mcp-manager.ts",
      "packages/manager/src/no-such-file.ts",
      "packages/manager/src/mcp-manager.ts",
      "packages/client/src/call-tool.ts",
      "packages/manager/src/server/server-supervisor.ts",
      "packages/manager/src/server/connect-and-list.ts",
      "fleet/fleet.ts",
      "fleet/no-such-fleet.ts",
      "stdio/stdio-era.ts",
      "contract.ts",
      "gone.md",
    ]);
    const problems = checkPaths(planted);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toBe("packages/manager/src/no-such-file.ts (line 8) does not exist");
    expect(problems[1]).toBe(
      "fleet/no-such-fleet.ts (line 16) is not in packages/manager/ nor from the repository root",
    );
    expect(problems[2]).toMatch(
      /^contract\.ts \(line 24\) is ambiguous \(.*packages\/cache\/src\/contract\.ts/,
    );
    expect(problems[3]).toBe("gone.md (line 24) does not exist");
  });

  it("find a link to nothing", () => {
    expect(checkLinks(planted, "docs")).toEqual(["link ../nowhere.md does not exist"]);
  });

  it("find a long file the map does not name", () => {
    const files = [
      { path: "packages/manager/src/mcp-manager.ts", lines: 301 },
      { path: "packages/manager/src/fleet/fleet.ts", lines: 400 },
      { path: "packages/manager/src/abortable.ts", lines: 36 },
    ];
    expect(checkLongFiles(planted, files, 300)).toEqual([
      "packages/manager/src/fleet/fleet.ts has 400 lines and is not named in the map with why",
    ]);
  });
});
