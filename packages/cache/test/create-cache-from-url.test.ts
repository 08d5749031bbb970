import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { createCacheFromUrl, createFileStore, MCPToolCache } from "@mcp-rt/cache";
import { McpRtError } from "@mcp-rt/config";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sampleTools, testCacheKey, useTempDir } from "./helpers.js";

const config = { url: "https://example.com/mcp" };

describe("createCacheFromUrl", () => {
  const dir = useTempDir("mcp-rt-url-");
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("memory: gives a cache of this process only", async () => {
    const a = await createCacheFromUrl("memory:");
    const b = await createCacheFromUrl(" memory: ");
    await a.set({ serverName: "s", config }, { tools: sampleTools(1) });
    expect(await a.get({ serverName: "s", config })).toEqual(sampleTools(1));
    expect(await b.get({ serverName: "s", config })).toBeNull();
  });

  it.each([
    ["file:/path", (d: string) => `file:${d}`],
    ["file:///path", (d: string) => pathToFileURL(d).href],
    ["file:relative", (d: string) => `file:${relative(process.cwd(), d)}`],
  ])("%s writes into that folder", async (_, toUrl) => {
    const cache = await createCacheFromUrl(toUrl(join(dir(), "my cache")), { key: testCacheKey });
    await cache.set({ serverName: "s", config }, { tools: sampleTools(2) });
    expect(await readdir(join(dir(), "my cache"))).toHaveLength(1);
    const reader = new MCPToolCache(createFileStore(join(dir(), "my cache")), {
      readTimeoutMs: 5000,
      key: testCacheKey,
    });
    expect(await reader.get({ serverName: "s", config })).toEqual(sampleTools(2));
  });

  it("file: alone uses the default folder", async () => {
    vi.stubEnv("XDG_CACHE_HOME", dir());
    const cache = await createCacheFromUrl("file:", { key: testCacheKey });
    await cache.set({ serverName: "s", config }, { tools: sampleTools(1) });
    expect(await readdir(join(dir(), "mcp-rt"))).toHaveLength(1);
  });

  it("passes the cache options on", async () => {
    const cache = await createCacheFromUrl("memory:", { ttlMs: 1 });
    await cache.set({ serverName: "s", config }, { tools: sampleTools(1) });
    await new Promise((done) => setTimeout(done, 10));
    expect(await cache.get({ serverName: "s", config })).toBeNull();
  });

  it.each([
    "",
    "memory",
    "memory:extra",
    "ftp://cache.example.com",
    "postgres://user:hunter2@db.example.com/cache",
    "/just/a/path",
    undefined,
    42,
  ])("rejects %j with CONFIG_INVALID, naming the accepted forms", async (url) => {
    const error = await createCacheFromUrl(url as string).catch((e: unknown) => e);
    expect(McpRtError.isInstance(error) && error.code).toBe("CONFIG_INVALID");
    expect(String(error)).toMatch(/memory:.*file:.*redis:\/\/host:port/);
    expect(String(error)).not.toContain("hunter2");
  });
});
