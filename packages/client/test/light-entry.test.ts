import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** The builtin modules named `child_process` that a fresh Node process loaded with `entry` imported. */
function childProcessModulesAfter(entry: URL): string[] {
  expect(existsSync(entry), "build @mcp-rt/client first").toBe(true);
  const script = `await import(${JSON.stringify(entry.href)});
    console.log(JSON.stringify(process.moduleLoadList.filter((id) => id.includes("child_process"))));`;
  return JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }),
  );
}

describe("the light entry", () => {
  it("does not load node:child_process, which only a launch needs (the root entry does)", () => {
    expect(childProcessModulesAfter(new URL("../dist/light.js", import.meta.url))).toEqual([]);
    expect(childProcessModulesAfter(new URL("../dist/index.js", import.meta.url))).not.toEqual([]);
  });
});
