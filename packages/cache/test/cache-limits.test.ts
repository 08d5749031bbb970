import { chmod, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CACHE_FORMAT_VERSION, createFileStore, MCPToolCache, toolCacheFingerprint } from "@mcp-rt/cache";
import { McpRtError } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { CacheKey } from "../src/cache-key.js";
import { recordingLogger, sampleTools, useTempDir } from "./helpers.js";

const config = { command: "node", args: ["server.js"] };
const root = useTempDir("mcp-rt-cache-limits-", "file");

/** The one entry file of a store's folder. */
async function onlyFile(folder: string): Promise<string> {
  const files = (await readdir(folder)).filter((name) => name.endsWith(".json"));
  expect(files).toHaveLength(1);
  return join(folder, files[0]!);
}

describe("the file store deletes what it cannot use", () => {
  it("a truncated or non-JSON entry is deleted on read, so the next start does not read it again", async () => {
    const store = createFileStore(join(root(), "truncated"));
    const logger = recordingLogger();
    const cache = new MCPToolCache(store, { readTimeoutMs: 5000, logger });
    await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: sampleTools(3) });
    const file = await onlyFile(store.path);
    await writeFile(file, (await readFile(file, "utf8")).slice(0, 60));
    expect(await cache.get({ serverName: "s", config, cwd: "/p" })).toBeNull();
    expect(await readdir(store.path)).toEqual([]);
    await store.set("k", "v");
    await writeFile(await onlyFile(store.path), "not json at all");
    expect(await store.get("k")).toBeUndefined();
    expect(await readdir(store.path)).toEqual([]);
  });

  it("a file larger than maxFileBytes is deleted unread; a larger write throws", async () => {
    const store = createFileStore(join(root(), "big"), { maxFileBytes: 1000 });
    await store.set("k", "small");
    const file = await onlyFile(store.path);
    await writeFile(file, JSON.stringify({ key: "k", value: "x".repeat(5000) }));
    expect(await store.get("k")).toBeUndefined();
    expect(await readdir(store.path)).toEqual([]);
    await expect(store.set("k", "y".repeat(2000))).rejects.toThrow(/larger than maxFileBytes \(1000\)/);
    expect(() => createFileStore(join(root(), "bad"), { maxFileBytes: 0 })).toThrow(TypeError);
  });

  it("makes an existing folder that others can open private (0700)", async () => {
    const folder = join(root(), "shared");
    await mkdir(folder, { mode: 0o755 });
    await chmod(folder, 0o755);
    await createFileStore(folder).set("k", "v");
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
  });
});

describe("MCPToolCache bounds its entries (maxEntryBytes)", () => {
  const big = sampleTools(1).map((tool) => ({ ...tool, description: "d".repeat(5000) }));

  it("does not write a list larger than the limit, says so, and drops the older entry", async () => {
    const store = new Map<string, unknown>();
    const logger = recordingLogger();
    const cache = new MCPToolCache(store, { maxEntryBytes: 2000, logger });
    await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: sampleTools(1) });
    expect(store.size).toBe(1);
    await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: big });
    expect(store.size).toBe(0);
    expect(logger.lines.filter((line) => line.level === "warn").map((line) => line.message)).toEqual([
      'Tool cache: not caching the tools of "s": the entry is larger than 2000 bytes (limit maxEntryBytes).',
    ]);
  });

  it("deletes an entry larger than the limit when it reads it (planted, or written with a higher limit)", async () => {
    const store = createFileStore(join(root(), "planted"));
    await new MCPToolCache(store).set({ serverName: "s", config, cwd: "/p" }, { tools: big });
    const logger = recordingLogger();
    const strict = new MCPToolCache(store, { maxEntryBytes: 2000, readTimeoutMs: 5000, logger });
    expect(await strict.get({ serverName: "s", config, cwd: "/p" })).toBeNull();
    expect(await readdir(store.path)).toEqual([]);
    expect(logger.lines.find((line) => line.level === "warn")?.message).toContain(
      'cached tools of "s" cannot be used (the entry is larger than 2000 bytes (limit maxEntryBytes)); ignoring and removing them',
    );
  });

  it("refuses an entry nested too deep for JSON.stringify, on write and on read, without recursing into it", async () => {
    const depth = 20_000;
    const schemaText = `${'{"type":"object","properties":{"next":'.repeat(depth)}{}${"}}".repeat(depth)}`;
    const fingerprint = toolCacheFingerprint({ serverName: "s", config, cwd: "/p" });
    const entryText = `{"version":${CACHE_FORMAT_VERSION},"fingerprint":"${fingerprint}","savedAt":${Date.now()},"tools":[{"name":"deep","inputSchema":${schemaText}}]}`;
    const store = new Map<string, unknown>();
    const logger = recordingLogger();
    const key = "a key of this test, long enough";
    const cache = new MCPToolCache(store, { logger, key });
    const planted = JSON.parse(entryText) as { tools: Parameters<MCPToolCache["set"]>[1]["tools"] };
    await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: planted.tools });
    expect(store.size).toBe(0);
    expect(logger.lines.at(-1)?.message).toBe(
      'Tool cache: not caching the tools of "s": the entry nests deeper than 512 levels.',
    );
    // A planted one (as the store keeps entries: Keyv's JSON text).
    store.set(`mcp-rt:${new CacheKey(key).entryId(fingerprint)}`, `{"value":${entryText}}`);
    expect(await cache.get({ serverName: "s", config, cwd: "/p" })).toBeNull();
    expect(store.size).toBe(0);
    expect(() => new MCPToolCache(store, { maxEntryBytes: -1 })).toThrow(McpRtError);
  });
});
