import { describe, expect, it } from "vitest";
// @ts-expect-error: a build script in plain JavaScript, without types
import { assertNoDynamicImport as untyped } from "../scripts/no-dynamic-import.mjs";

const assertNoDynamicImport = untyped as (fileName: string, code: string) => void;

describe("the build's check of the bin's entry file", () => {
  it("fails naming each import() left in it", () => {
    expect(() =>
      assertNoDynamicImport(
        "agent.cjs",
        'async function f() { return (await import("node:child_process")).spawn; }',
      ),
    ).toThrowError(
      /^agent\.cjs holds import\("node:child_process"\): the bin runs it through a V8 code cache/,
    );
    expect(() =>
      assertNoDynamicImport("agent.cjs", 'const a = () => import("x"), b = () => import(name);'),
    ).toThrowError(/holds import\("x"\), import\(name\):/);
  });

  it("passes require, and text that only looks like an import()", () => {
    expect(() =>
      assertNoDynamicImport(
        "agent.cjs",
        'const m = require("node:child_process"); const text = "import(\\"x\\")"; // import("y")',
      ),
    ).not.toThrow();
  });
});
