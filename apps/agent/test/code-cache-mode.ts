import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { echoServer } from "@mcp-rt/testing";
import { expect } from "vitest";
import { createSandbox, runAgent, type Sandbox } from "./agent-process.js";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));

/** The bundle the bin runs, named in dist/main.js (its name carries a hash of its content). */
export function bundleName(): string {
  const name = readFileSync(join(dist, "main.js"), "utf8").match(/^const BUNDLE = "([^"]+)";$/m)?.[1];
  if (!name) throw new Error("dist/main.js names no bundle");
  return name;
}

/** The bin's code cache file in `dir` (the folder next to the bin unless a test gives its own). */
export function codeCacheFile(dir: string = join(dist, "v8-cache")): string {
  return join(dir, `${bundleName()}.${process.version}-${process.arch}.bin`);
}

/**
 * How the bin starts: `cold` compiles the bundle from source (no code cache), `warm` from a code
 * cache V8 accepts. The two differ in what V8 gives the compiled script (a script made from a
 * cache has no dynamic `import()` callback), so every lazily loaded path is tried both ways.
 */
export type CodeCacheMode = "cold" | "warm";

/** A code cache made by one start of the bin on a server of its own, for warm starts to copy. */
export async function makeCodeCache(): Promise<Buffer> {
  const sandbox = await createSandbox({ ownCodeCache: true });
  try {
    const config = join(sandbox.root, "seed.json");
    await writeFile(config, JSON.stringify({ mcpServers: { seed: echoServer() } }));
    const run = await runAgent(["--config", config, "--cache", "memory:", "--exec", "/quit"], sandbox);
    if (run.code !== 0) throw new Error(`the seed start failed:\n${run.stdout}\n${run.stderr}`);
    return readFileSync(codeCacheFile(sandbox.codeCache));
  } finally {
    await sandbox.cleanup();
  }
}

/**
 * Puts `sandbox`'s code cache in the state `mode` asks for before a start, and returns the check
 * for after it: a cold start wrote a cache (it compiled from source), a warm one left the copy
 * as it was (V8 accepted it; a rejected cache is written again).
 */
export function prepareCodeCache(
  sandbox: Sandbox,
  mode: CodeCacheMode,
  seed: Buffer | undefined,
): () => void {
  if (!sandbox.codeCache) throw new Error("prepareCodeCache: the sandbox needs ownCodeCache");
  const file = codeCacheFile(sandbox.codeCache);
  if (mode === "cold") {
    rmSync(file, { force: true });
    return () => expect(existsSync(file), "a cold start writes the code cache").toBe(true);
  }
  if (!seed) throw new Error("prepareCodeCache: a warm start needs a seed cache");
  rmSync(file, { force: true });
  mkdirSync(sandbox.codeCache, { recursive: true });
  writeFileSync(file, seed);
  const before = statSync(file, { bigint: true });
  return () => {
    const after = statSync(file, { bigint: true });
    expect([after.ino, after.mtimeNs], "V8 accepted the code cache: it was not written again").toEqual([
      before.ino,
      before.mtimeNs,
    ]);
  };
}
