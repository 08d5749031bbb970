import { readdir } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { createFileStore, MCPToolCache } from "@mcp-rt/cache";
import type { MCPToolDefinition } from "@mcp-rt/config";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, cliConfig, cliCwd, runCli } from "./cache-cli.js";
import { recordingLogger, sampleTools, testCacheKey, useTempDir } from "./helpers.js";

describe("the file store across processes", () => {
  beforeAll(() => {
    assertBuilt();
  });
  const dir = useTempDir("mcp-rt-cross-");

  it("a cache written by one process is read by another, both ways", async () => {
    const url = pathToFileURL(dir()).href;
    expect(await runCli([url, "set", "github"], { stdin: sampleTools(5, "child") })).toMatchObject({
      code: 0,
      stderr: "",
    });
    const cache = new MCPToolCache(createFileStore(dir()), { readTimeoutMs: 5000, key: testCacheKey });
    expect(await cache.get({ serverName: "github", config: cliConfig, cwd: cliCwd })).toEqual(
      sampleTools(5, "child"),
    );

    await cache.set(
      { serverName: "github", config: cliConfig, cwd: cliCwd },
      { tools: sampleTools(2, "parent") },
    );
    const read = await runCli([`file:${dir()}`, "get", "github"]);
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toEqual(sampleTools(2, "parent"));
  });

  it("two processes writing the same key at once leave one whole, valid entry", async () => {
    const sets: MCPToolDefinition[][] = [sampleTools(300, "a"), sampleTools(300, "b")];
    const logger = recordingLogger();
    const cache = new MCPToolCache(createFileStore(dir()), {
      logger,
      readTimeoutMs: 5000,
      key: testCacheKey,
    });
    const writers = sets.map((tools) =>
      runCli([`file:${dir()}`, "set", "shared", "40"], { stdin: tools, timeoutMs: 60_000 }),
    );
    let reading = true;
    const seen: Array<MCPToolDefinition[] | null> = [];
    const reader = (async () => {
      while (reading) seen.push(await cache.get({ serverName: "shared", config: cliConfig, cwd: cliCwd }));
    })();
    const runs = await Promise.all(writers);
    reading = false;
    await reader;

    for (const run of runs) expect(run).toMatchObject({ code: 0, stderr: "" });
    const final = await cache.get({ serverName: "shared", config: cliConfig, cwd: cliCwd });
    expect(sets).toContainEqual(final);
    const hits = seen.filter((tools) => tools !== null);
    expect(hits.length).toBeGreaterThan(0);
    for (const tools of hits) expect(sets).toContainEqual(tools);
    expect(logger.count("warn")).toBe(0);
    expect((await readdir(dir())).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});
