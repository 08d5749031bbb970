import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runAgent, useSandbox } from "./agent-process.js";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));

/** The bundle the bin runs, named in dist/main.js (its name carries a hash of its content). */
function bundleName(): string {
  const name = readFileSync(join(dist, "main.js"), "utf8").match(/^const BUNDLE = "([^"]+)";$/m)?.[1];
  if (!name) throw new Error("dist/main.js names no bundle");
  return name;
}

describe("the bin's V8 code cache", () => {
  const sandbox = useSandbox();

  it("is written by a start without one, and rewritten when V8 rejects it; the agent runs either way", async () => {
    const bundle = bundleName();
    expect(readdirSync(dist)).toContain(bundle);
    const cacheFile = join(dist, "v8-cache", `${bundle}.${process.version}-${process.arch}.bin`);
    rmSync(cacheFile, { force: true });

    const first = await runAgent(["--demo", "--json", "--exec", "/quit"], sandbox());
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('"event":"ready"');
    expect(existsSync(cacheFile)).toBe(true);

    // Not a code cache V8 accepts (another Node's, a damaged file): compiled from source, then replaced.
    const garbage = Buffer.alloc(4096, 7);
    writeFileSync(cacheFile, garbage);
    const second = await runAgent(
      ["--demo", "--json", "--exec", '/call mcp_everything_echo {"message":"hi"}'],
      sandbox(),
    );
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("Echo: hi");
    expect(readFileSync(cacheFile).equals(garbage)).toBe(false);
  });
});
