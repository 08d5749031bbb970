import { describe, expect, it } from "vitest";
import { type Node, nodes, ownExports } from "./module-exports.js";

/** STYLE.md: more than this many parameters → one options object. */
const MAX_POSITIONAL = 2;

/** A callable the API exposes and how many parameters it takes: `MCPManager.getPrompt` with 4. */
export interface Signature {
  name: string;
  parameters: number;
}

function keyName(node: Node): string | undefined {
  const key = node.key as Node | undefined;
  if (!key || node.computed) return undefined;
  return key.type === "Identifier" ? (key.name as string) : undefined;
}

/** A function type behind a property's type annotation (`onUpdate?: (a, b, c) => void`). */
function functionType(node: Node): Node | undefined {
  const type = (node.typeAnnotation as Node | undefined)?.typeAnnotation as Node | undefined;
  return type?.type === "TSFunctionType" ? type : undefined;
}

/** The callables of one declaration: a function, a class's public methods and constructor, an interface's methods. */
function signaturesOf(name: string, declaration: Node): Signature[] {
  switch (declaration.type) {
    case "FunctionDeclaration":
    case "TSDeclareFunction":
    case "ArrowFunctionExpression":
    case "FunctionExpression":
    case "TSFunctionType":
      return [{ name, parameters: nodes(declaration.params).length }];
    case "TSTypeAliasDeclaration": {
      const type = declaration.typeAnnotation as Node;
      if (type.type === "TSFunctionType") return signaturesOf(name, type);
      if (type.type === "TSTypeLiteral") return membersOf(name, nodes(type.members));
      return [];
    }
    case "TSInterfaceDeclaration":
      return membersOf(name, nodes((declaration.body as Node).body));
    case "ClassDeclaration":
      return nodes((declaration.body as Node).body).flatMap((member) => {
        const method = keyName(member);
        const hidden = member.accessibility === "private" || member.accessibility === "protected";
        if (member.type !== "MethodDefinition" || method === undefined || hidden) return [];
        if (member.kind === "get" || member.kind === "set") return [];
        const label = member.kind === "constructor" ? `new ${name}` : `${name}.${method}`;
        return signaturesOf(label, member.value as Node);
      });
    default:
      return [];
  }
}

function membersOf(name: string, members: Node[]): Signature[] {
  return members.flatMap((member) => {
    const field = keyName(member);
    if (field === undefined) return [];
    if (member.type === "TSMethodSignature")
      return [{ name: `${name}.${field}`, parameters: nodes(member.params).length }];
    const type = member.type === "TSPropertySignature" ? functionType(member) : undefined;
    return type ? signaturesOf(`${name}.${field}`, type) : [];
  });
}

/**
 * Every callable a package's entry exports from the package's own modules
 * (re-exports of other packages are checked in those packages), with its
 * parameter count: exported functions, classes' public methods and
 * constructors, methods of exported interfaces and function types.
 */
export function exportedSignatures(entry: URL): Signature[] {
  return [...ownExports(entry)].flatMap(([name, declaration]) =>
    declaration ? signaturesOf(name, declaration) : [],
  );
}

/** The callables among `signatures` with more than two parameters, as `Name.method(n)`, minus `fixed`. */
export function longSignatures(signatures: readonly Signature[], fixed: readonly string[] = []): string[] {
  return signatures
    .filter((signature) => signature.parameters > MAX_POSITIONAL && !fixed.includes(signature.name))
    .map((signature) => `${signature.name}(${signature.parameters})`);
}

/** Options of {@link describeExportedSignatures}. */
export interface ExportedSignaturesOptions {
  /** Who the package is, in the tests' names: `the manager`. */
  name: string;
  /** The package's entry: `new URL("../src/index.ts", import.meta.url)`. */
  entry: URL;
  /** A callable every package of the API has (shows the entry was read): `MCPManager.connectServers`. */
  sample: string;
  /** SPEC §5's fixed names and call shapes that take more than two parameters: `CustomTool.execute`. */
  fixed?: readonly string[];
}

/** The suite that keeps a package's exported callables at two parameters or one options object (STYLE.md). */
export function describeExportedSignatures(options: ExportedSignaturesOptions): void {
  const fixed = options.fixed ?? [];
  describe(`${options.name}'s exported signatures`, () => {
    const signatures = exportedSignatures(options.entry);

    it("reads the entry's functions, methods and interfaces (the check can fail)", () => {
      expect(signatures.map((signature) => signature.name)).toContain(options.sample);
      const names = new Set(signatures.map((signature) => signature.name));
      for (const name of fixed) expect(names.has(name), `${name} is still exported`).toBe(true);
      expect(
        longSignatures([
          { name: "f", parameters: 3 },
          { name: "g", parameters: 2 },
        ]),
      ).toEqual(["f(3)"]);
    });

    it("takes one options object wherever more than two parameters would be needed", () => {
      expect(longSignatures(signatures, fixed)).toEqual([]);
    });
  });
}
