import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSync } from "vite";

// The few AST shapes read here (oxc's ESTree + TS-ESTree, as `vite` parses).
export interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

export function nodes(value: unknown): Node[] {
  return Array.isArray(value) ? (value as Node[]) : [];
}

/** A TypeScript file parsed: its top-level statements and its comments. */
export function parseModule(file: string): { body: Node[]; comments: Node[] } {
  const { program, comments, errors } = parseSync(file, readFileSync(file, "utf8"), { lang: "ts" });
  if (errors.length > 0) throw new Error(`${file} does not parse: ${errors[0]!.message}`);
  return { body: program.body as unknown as Node[], comments: comments as unknown as Node[] };
}

/** One module: its top-level declarations by name, and the names it exports from other names or relative modules. */
interface ModuleFacts {
  declarations: Map<string, Node>;
  reexports: Map<string, { from: string; name: string }>;
}

function readModule(file: string): ModuleFacts {
  const declarations = new Map<string, Node>();
  const reexports = new Map<string, { from: string; name: string }>();
  const declare = (node: Node): void => {
    const id = (node.id as Node | undefined)?.name;
    if (typeof id === "string") declarations.set(id, node);
    if (node.type === "VariableDeclaration") {
      for (const variable of nodes(node.declarations)) {
        const init = variable.init as Node | undefined;
        const variableName = (variable.id as Node).name;
        if (init && typeof variableName === "string") declarations.set(variableName, init);
      }
    }
  };
  const relative = (source: string): string => join(dirname(file), source.replace(/\.js$/, ".ts"));
  // What this file imports from the package's own modules, by local name.
  const imports = new Map<string, { from: string; name: string }>();
  for (const statement of parseModule(file).body) {
    const source = (statement.source as Node | null)?.value;
    if (statement.type === "ImportDeclaration" && typeof source === "string" && source.startsWith(".")) {
      for (const specifier of nodes(statement.specifiers)) {
        const imported = (specifier.imported as Node | undefined)?.name;
        const local = (specifier.local as Node).name as string;
        if (typeof imported === "string") imports.set(local, { from: relative(source), name: imported });
      }
    }
    if (statement.type !== "ExportNamedDeclaration") {
      declare(statement);
      continue;
    }
    if (statement.declaration) declare(statement.declaration as Node);
    if (typeof source === "string" && !source.startsWith(".")) continue;
    for (const specifier of nodes(statement.specifiers)) {
      const local = (specifier.local as Node).name as string;
      const exported = (specifier.exported as Node).name as string;
      // Without a source, `export { a }` passes on an import or names a declaration of this file.
      if (typeof source === "string") reexports.set(exported, { from: relative(source), name: local });
      else if (imports.has(local)) reexports.set(exported, imports.get(local)!);
      else if (local !== exported) reexports.set(exported, { from: file, name: local });
    }
  }
  return { declarations, reexports };
}

/**
 * Every name an entry exports from the package's own modules, with its
 * declaration, followed through the modules that pass it on; undefined when
 * no module of the package declares it (another package's name passed on
 * through one of them).
 */
export function ownExports(entry: URL): Map<string, Node | undefined> {
  const modules = new Map<string, ModuleFacts>();
  const facts = (file: string): ModuleFacts => {
    let known = modules.get(file);
    if (!known) {
      known = readModule(file);
      modules.set(file, known);
    }
    return known;
  };
  const resolve = (file: string, name: string): Node | undefined => {
    const { declarations, reexports } = facts(file);
    const declared = declarations.get(name);
    if (declared) return declared;
    const next = reexports.get(name);
    return next ? resolve(next.from, next.name) : undefined;
  };
  const entryFile = fileURLToPath(entry);
  const names = new Map<string, Node | undefined>();
  for (const name of facts(entryFile).reexports.keys()) names.set(name, resolve(entryFile, name));
  return names;
}
