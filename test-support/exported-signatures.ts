import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** One exported function, method or constructor, and how many parameters it takes. */
export interface ExportedSignature {
  /** `name` for a function, `Owner.name` for a member (`Owner.constructor` for a constructor). */
  name: string;
  /** The parameters, as declared (`a: string`, `options?: X`, `...rest: unknown[]`). */
  params: string[];
  /** The entry that exports it, e.g. `@mcp-rt/cache/redis`. */
  entry: string;
}

interface PackageJson {
  name: string;
  exports: Record<string, string | { types: string }>;
}

const CLOSE: Record<string, string> = { "(": ")", "{": "}", "[": "]", "<": ">" };

/** The index of the bracket that closes the one at `open`, skipping strings and the `>` of `=>`. */
function closing(text: string, open: number): number {
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"' || char === "'" || char === "`") {
      i = text.indexOf(char, i + 1);
      if (i < 0) break;
      continue;
    }
    if (char in CLOSE) stack.push(CLOSE[char]!);
    else if (char === stack.at(-1) && !(char === ">" && text[i - 1] === "=")) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  throw new Error(`unbalanced brackets from offset ${open}`);
}

/** The top-level comma-separated parts of `text` (a parameter list without its parentheses). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char in CLOSE) i = closing(text, i);
    else if (char === ",") {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.replace(/\s+/g, " ").trim()).filter(Boolean);
}

/** The parameters of the signature whose `(` (or generic `<`) is at `at`. */
function paramsAt(text: string, at: number): string[] {
  let open = at;
  if (text[open] === "<") open = closing(text, open) + 1;
  return splitTopLevel(text.slice(open + 1, closing(text, open)));
}

/** The body `{ … }` of the declaration starting at `at`, without its braces. */
function bodyAt(text: string, at: number): string {
  const open = text.indexOf("{", at);
  return text.slice(open + 1, closing(text, open));
}

/** Top-level lines of a class or interface body that declare a method or constructor. */
function members(owner: string, body: string): Array<{ name: string; params: string[] }> {
  const found: Array<{ name: string; params: string[] }> = [];
  const member =
    /(?:^|[;\n])\s*(?:(?:static|readonly|abstract|public|protected|get|set|async)\s+)*(constructor|\[?[A-Za-z_$][\w$.]*\]?)\??\s*(?=[<(])/g;
  for (let match = member.exec(body); match; match = member.exec(body)) {
    const at = match.index + match[0].length;
    // Skip what nested object types hold: only members at the body's top level count.
    const before = body.slice(0, match.index);
    if (depth(before) !== 0) continue;
    found.push({ name: `${owner}.${match[1]}`, params: paramsAt(body, at) });
    member.lastIndex = closing(body, body[at] === "<" ? closing(body, at) + 1 : at);
  }
  return found;
}

/** How deep inside brackets the end of `text` is. */
function depth(text: string): number {
  let level = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === "(" || char === "{" || char === "[") level++;
    else if (char === ")" || char === "}" || char === "]") level--;
  }
  return level;
}

/** A declaration file without its comments (whose apostrophes would read as strings). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

/** The functions, class members and interface methods a declaration file declares under `name`. */
export function declarationsOf(text: string, name: string): Array<{ name: string; params: string[] }> {
  const found: Array<{ name: string; params: string[] }> = [];
  const fn = new RegExp(`(?:^|\\n)(?:export )?(?:declare )?function ${name}\\s*(?=[<(])`, "g");
  for (let match = fn.exec(text); match; match = fn.exec(text)) {
    found.push({ name, params: paramsAt(text, match.index + match[0].length) });
  }
  const owner = new RegExp(
    `(?:^|\\n)(?:export )?(?:declare )?(?:abstract )?(?:class|interface) ${name}\\b[^{]*\\{`,
    "g",
  );
  for (let match = owner.exec(text); match; match = owner.exec(text)) {
    found.push(...members(name, bodyAt(text, match.index + match[0].length - 1)));
  }
  return found;
}

/** Where each name an entry file exports is declared: name → declaration file. */
function exportsOf(file: string): Map<string, string> {
  const text = withoutComments(readFileSync(file, "utf8"));
  const names = new Map<string, string>();
  for (const match of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    const from = match[2]!;
    const target = from.startsWith(".") ? join(dirname(file), from.replace(/\.js$/, ".d.ts")) : undefined;
    for (const part of match[1]!.split(",")) {
      const name = part
        .trim()
        .split(/\s+as\s+/)[0]!
        .replace(/^type\s+/, "");
      if (name && target) names.set(name, target);
    }
  }
  // Declarations in the entry file itself.
  for (const match of text.matchAll(
    /export\s+(?:declare\s+)?(?:abstract\s+)?(?:function|class|interface)\s+(\w+)/g,
  )) {
    names.set(match[1]!, file);
  }
  return names;
}

/**
 * Every function, class member (constructor included) and interface method
 * that a package's entries export, read from its built `.d.ts` files. Names a
 * package re-exports from another package are that package's to check.
 */
export function exportedSignatures(packageDir: string): ExportedSignature[] {
  const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as PackageJson;
  const seen = new Set<string>();
  const signatures: ExportedSignature[] = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === "string") continue;
    const entry = subpath === "." ? pkg.name : `${pkg.name}${subpath.slice(1)}`;
    for (const [name, file] of exportsOf(join(packageDir, target.types))) {
      const key = `${file}#${name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const declaration of declarationsOf(withoutComments(readFileSync(file, "utf8")), name)) {
        signatures.push({ ...declaration, entry });
      }
    }
  }
  return signatures;
}

/** The signatures with more than `max` parameters, as `entry name(params)` lines, minus `allowed` names. */
export function tooManyParams(
  signatures: readonly ExportedSignature[],
  { max = 2, allowed = [] }: { max?: number; allowed?: readonly string[] } = {},
): string[] {
  return signatures
    .filter((signature) => signature.params.length > max && !allowed.includes(signature.name))
    .map((signature) => `${signature.entry} ${signature.name}(${signature.params.join(", ")})`);
}

/**
 * The suite that keeps a package's exported calls to two positional
 * parameters at most (STYLE.md: "more than two parameters → one options
 * object"). It reads the built `.d.ts`, so build the package first. `allowed`
 * names the exceptions (SPEC §5's fixed shapes), each as `name` or `Owner.name`.
 *
 * @example describeSignatures(new URL("../", import.meta.url), { allowed: ["CustomTool.execute"] })
 */
export function describeSignatures(
  packageDir: URL,
  { allowed = [] }: { allowed?: readonly string[] } = {},
): void {
  const dir = fileURLToPath(packageDir);
  describe("exported signatures", () => {
    it("reads parameters as a reader counts them (the check can fail)", () => {
      const text = [
        "export declare function three<T>(a: (x: number, y: number) => T, b: { c: string; d: number }, e?: Map<string, number>): void;",
        "export declare class Box {",
        "    #private;",
        "    constructor(a: string, b: () => void, c?: number);",
        "    put(key: string, value: unknown): void;",
        "    static make(...parts: string[]): Box;",
        "}",
      ].join("\n");
      expect(declarationsOf(text, "three")).toEqual([
        {
          name: "three",
          params: [
            "a: (x: number, y: number) => T",
            "b: { c: string; d: number }",
            "e?: Map<string, number>",
          ],
        },
      ]);
      expect(declarationsOf(text, "Box").map((found) => `${found.name}/${found.params.length}`)).toEqual([
        "Box.constructor/3",
        "Box.put/2",
        "Box.make/1",
      ]);
      const found = declarationsOf(text, "three").map((signature) => ({ ...signature, entry: "x" }));
      expect(tooManyParams(found)).toHaveLength(1);
    });

    it("finds the package's exported functions and methods", () => {
      expect(exportedSignatures(dir).length).toBeGreaterThan(5);
    });

    it("takes at most two positional parameters in every exported function and method", () => {
      expect(tooManyParams(exportedSignatures(dir), { allowed })).toEqual([]);
    });

    it("lists only exceptions that still exist", () => {
      const names = new Set(exportedSignatures(dir).map((signature) => signature.name));
      expect(allowed.filter((name) => !names.has(name))).toEqual([]);
    });
  });
}
