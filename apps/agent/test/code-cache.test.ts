import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runAgent, startAgent, stopAgent, useSandbox } from "./agent-process.js";
import { bundleName, codeCacheFile } from "./code-cache-mode.js";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));

describe("the bin's V8 code cache", () => {
  const sandbox = useSandbox({ ownCodeCache: true });

  it("is written by a start without one, and rewritten when V8 rejects it; the agent runs either way", async () => {
    const bundle = bundleName();
    expect(readdirSync(dist)).toContain(bundle);
    const cacheFile = codeCacheFile(sandbox().codeCache);

    const first = await runAgent(["--demo", "--json", "--exec", "/quit"], sandbox());
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('"event":"ready"');
    expect(existsSync(cacheFile)).toBe(true);

    // Not a code cache V8 accepts (another Node's, a damaged file): compiled from source, then replaced.
    // Larger than the bundle: the bin reads both through one buffer, made as large as the larger.
    const garbage = Buffer.alloc(statSync(join(dist, bundle)).size + 4096, 7);
    writeFileSync(cacheFile, garbage);
    const second = await runAgent(
      ["--demo", "--json", "--exec", '/call mcp_everything_echo {"message":"hi"}'],
      sandbox(),
    );
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("Echo: hi");
    expect(readFileSync(cacheFile).equals(garbage)).toBe(false);
  });

  it("is written once the tools are in hand, not at exit: it holds the start path, not the whole session", async () => {
    const cacheFile = codeCacheFile(sandbox().codeCache);
    const agent = startAgent(sandbox(), ["--demo", "--json"]);
    try {
      await agent.waitFor(/"event":"ready"/);
      // Written right after the handoff, while the REPL still runs: one written at exit would not be there.
      await expect.poll(() => existsSync(cacheFile), { timeout: 5000 }).toBe(true);
      expect(agent.child.exitCode).toBe(null);
      agent.write("/quit\n");
      expect(await agent.exited).toBe(0);
    } finally {
      await stopAgent(agent);
    }
  });

  it("is used by the next start as it is: V8 accepts it and it is not written again", async () => {
    const cacheFile = codeCacheFile(sandbox().codeCache);
    expect((await runAgent(["--demo", "--json", "--exec", "/quit"], sandbox())).code).toBe(0);
    const written = statSync(cacheFile, { bigint: true });

    const warm = await runAgent(["--demo", "--json", "--exec", "/quit"], sandbox());
    expect(warm.code).toBe(0);
    // A rejected cache (a source that differs from the one it was made from) would be replaced.
    const after = statSync(cacheFile, { bigint: true });
    expect([after.ino, after.mtimeNs]).toEqual([written.ino, written.mtimeNs]);
    // The bundle is ASCII (its other characters escaped) and read as such: the text is intact.
    expect(warm.stdout).toContain("mcp-rt agent \u00b7 model: offline");
    expect(warm.stdout).toMatch(/\u25cc everything {2}deferred: \d+ tools from the cache/);
  });
});
