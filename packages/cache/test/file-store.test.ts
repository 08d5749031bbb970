import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import keyvTestSuite from "@keyv/test-suite";
import { createFileStore, defaultCacheDir, MCPToolCache } from "@mcp-rt/cache";
import { toolCacheContractTests } from "@mcp-rt/cache/contract";
import Keyv from "keyv";
import * as vitest from "vitest";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { recordingLogger, sampleTools, testCacheKey, useTempDir } from "./helpers.js";

const config = { command: "node", args: ["server.js"] };
const root = useTempDir("mcp-rt-file-store-", "file");

describe("the file store passes @keyv/test-suite", () => {
  keyvTestSuite(vitest, Keyv, () => createFileStore(join(root(), "keyv-suite")));
});

describe("MCPToolCache on the file store", () => {
  toolCacheContractTests(it, () => createFileStore(join(root(), "contract")));
});

describe("createFileStore", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(root(), "store-"));
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("creates its folder 0700 and its files 0600", async () => {
    const folder = join(dir, "fresh", "nested");
    await createFileStore(folder).set("k", "v");
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    const [file] = await readdir(folder);
    expect(file).toMatch(/\.json$/);
    expect((await stat(join(folder, file ?? ""))).mode & 0o777).toBe(0o600);
  });

  it("defaults to $XDG_CACHE_HOME/mcp-rt, else ~/.cache/mcp-rt", () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/var/cache/me" }, "/home/me")).toBe("/var/cache/me/mcp-rt");
    expect(defaultCacheDir({}, "/home/me")).toBe("/home/me/.cache/mcp-rt");
    expect(defaultCacheDir({ XDG_CACHE_HOME: "relative/path" }, "/home/me")).toBe("/home/me/.cache/mcp-rt");
    vi.stubEnv("XDG_CACHE_HOME", join(dir, "xdg"));
    expect(createFileStore().path).toBe(join(dir, "xdg", "mcp-rt"));
    expect(createFileStore("~/somewhere").path).toBe(join(homedir(), "somewhere"));
  });

  it("sees what another handle (another process) wrote, at once", async () => {
    const a = createFileStore(join(dir, "shared"));
    const b = createFileStore(join(dir, "shared"));
    await a.set("k", "first");
    expect(await b.get("k")).toBe("first");
    await b.set("k", "second");
    expect(await a.get("k")).toBe("second");
    await b.delete("k");
    expect(await a.get("k")).toBeUndefined();
  });

  it("leaves one whole file and no temp files after concurrent writers", async () => {
    const folder = join(dir, "race");
    const values = Array.from({ length: 20 }, (_, i) => `value-${i}-${"x".repeat(50_000)}`);
    await Promise.all(values.map((value) => createFileStore(folder).set("k", value)));
    expect(values).toContain(await createFileStore(folder).get("k"));
    expect((await readdir(folder)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("honours its own TTL, also without Keyv", async () => {
    const store = createFileStore(join(dir, "ttl"));
    await store.set("k", "v", 1000);
    expect(await store.get("k")).toBe("v");
    await new Promise((done) => setTimeout(done, 1300));
    expect(await store.get("k")).toBeUndefined();
    expect(await readdir(store.path)).toEqual([]);
  });

  it("iterates over one namespace's live entries", async () => {
    const store = createFileStore(join(dir, "iterate"));
    await store.set("a:1", "one");
    await store.set("a:2", "two");
    await store.set("b:1", "other");
    const seen: unknown[] = [];
    for await (const entry of store.iterator("a")) seen.push(entry);
    expect(seen.sort()).toEqual([
      ["a:1", "one"],
      ["a:2", "two"],
    ]);
  });

  it("clear() removes temp files that a crashed writer left, but not fresh ones", async () => {
    const store = createFileStore(join(dir, "crash"));
    await store.set("k", "v");
    const stale = join(store.path, "x.json.123-abc.tmp");
    const fresh = join(store.path, "y.json.456-def.tmp");
    await writeFile(stale, "half");
    await writeFile(fresh, "half");
    const old = new Date(Date.now() - 10 * 60_000);
    await utimes(stale, old, old);
    await store.clear();
    expect((await readdir(store.path)).sort()).toEqual(["y.json.456-def.tmp"]);
  });

  it("removes the temp files a killed writer left on its first write, but not fresh ones", async () => {
    const folder = join(dir, "killed-writer");
    await createFileStore(folder).set("k", "v");
    const stale = join(folder, "x.json.123-abc.tmp");
    const fresh = join(folder, "y.json.456-def.tmp");
    await writeFile(stale, "half");
    await writeFile(fresh, "half");
    const old = new Date(Date.now() - 10 * 60_000);
    await utimes(stale, old, old);
    const store = createFileStore(folder);
    await store.get("k");
    expect(await readdir(folder)).toContain("x.json.123-abc.tmp");
    await store.set("k", "w");
    expect((await readdir(folder)).filter((name) => name.endsWith(".tmp"))).toEqual(["y.json.456-def.tmp"]);
  });

  it("reads a damaged file as missing, and the cache as a miss", async () => {
    const store = createFileStore(join(dir, "damaged"));
    const cache = new MCPToolCache(store, { readTimeoutMs: 5000, key: testCacheKey });
    await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: sampleTools(2) });
    const [file] = await readdir(store.path);
    const path = join(store.path, file ?? "");
    await writeFile(path, (await readFile(path, "utf8")).slice(0, 40));
    expect(await cache.get({ serverName: "s", config, cwd: "/p" })).toBeNull();
    await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: sampleTools(2) });
    expect(await cache.get({ serverName: "s", config, cwd: "/p" })).toEqual(sampleTools(2));
  });

  it("recreates its folder when someone removed it", async () => {
    const store = createFileStore(join(dir, "removed"));
    await store.set("k", "v1");
    await rm(store.path, { recursive: true });
    await store.set("k", "v2");
    expect(await store.get("k")).toBe("v2");
  });

  it("surfaces an unusable folder as errors, which the cache turns into misses and one warning", async () => {
    const blocker = join(dir, "not-a-folder");
    await writeFile(blocker, "a file where the folder should be");
    const store = createFileStore(blocker);
    await expect(store.set("k", "v")).rejects.toThrow();
    const logger = recordingLogger();
    const cache = new MCPToolCache(createFileStore(join(blocker, "sub")), { logger, key: testCacheKey });
    await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: sampleTools(1) });
    await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: sampleTools(1) });
    expect(await cache.get({ serverName: "s", config, cwd: "/p" })).toBeNull();
    expect(logger.count("warn")).toBe(1);
  });

  it("installs no signal or exit handlers", async () => {
    const events = ["SIGINT", "SIGTERM", "SIGHUP", "exit", "beforeExit"] as const;
    const before = events.map((event) => process.listenerCount(event));
    const store = createFileStore(join(dir, "signals"));
    await store.set("k", "v");
    await store.get("k");
    expect(events.map((event) => process.listenerCount(event))).toEqual(before);
  });
});
