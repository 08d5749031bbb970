import { EventEmitter } from "node:events";
import { CACHE_FORMAT_VERSION, MCPToolCache, toolCacheFingerprint } from "@mcp-rt/cache";
import { type MCPServerConfig, type MCPToolDefinition, McpRtError } from "@mcp-rt/config";
import Keyv, { type KeyvStoreAdapter } from "keyv";
import { describe, expect, it } from "vitest";
import { CacheKey } from "../src/cache-key.js";
import { probeStore, recordingLogger, sampleTools, testCacheKey } from "./helpers.js";

const stdio: MCPServerConfig = { command: "npx", args: ["-y", "server"], env: { B: "2", A: "1" } };
const http: MCPServerConfig = { url: "https://example.com/mcp" };

describe("toolCacheFingerprint", () => {
  it("is a SHA-256 hex that ignores key order at every depth", () => {
    const a = toolCacheFingerprint({
      serverName: "s",
      config: { command: "x", env: { A: "1", B: "2" }, args: ["1"] },
      cwd: "/p",
    });
    const b = toolCacheFingerprint({
      serverName: "s",
      config: { args: ["1"], env: { B: "2", A: "1" }, command: "x" },
      cwd: "/p",
    });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).toBe(b);
  });

  it("changes with the name, the config, the format version and a stdio server's folder", () => {
    const base = toolCacheFingerprint({ serverName: "s", config: stdio, cwd: "/p" });
    expect(toolCacheFingerprint({ serverName: "t", config: stdio, cwd: "/p" })).not.toBe(base);
    expect(
      toolCacheFingerprint({ serverName: "s", config: { ...stdio, args: ["-y", "other"] }, cwd: "/p" }),
    ).not.toBe(base);
    expect(toolCacheFingerprint({ serverName: "s", config: stdio, cwd: "/q" })).not.toBe(base);
    expect(
      toolCacheFingerprint({ serverName: "s", config: stdio, cwd: "/p" }, CACHE_FORMAT_VERSION + 1),
    ).not.toBe(base);
    expect(toolCacheFingerprint({ serverName: "s", config: stdio, cwd: "/p/sub/.." })).toBe(base);
  });

  it("stays the same when only alwaysLoad changes: pinning a server keeps its cached tools", () => {
    const base = toolCacheFingerprint({ serverName: "s", config: stdio, cwd: "/p" });
    expect(toolCacheFingerprint({ serverName: "s", config: { ...stdio, alwaysLoad: true }, cwd: "/p" })).toBe(
      base,
    );
  });

  it("resolves a stdio server's own cwd against the agent's, and ignores the folder for HTTP servers", () => {
    expect(toolCacheFingerprint({ serverName: "s", config: { ...stdio, cwd: "tools" }, cwd: "/p" })).toBe(
      toolCacheFingerprint({ serverName: "s", config: { ...stdio, cwd: "tools" }, cwd: "/p/" }),
    );
    expect(toolCacheFingerprint({ serverName: "s", config: { ...stdio, cwd: "/abs" }, cwd: "/p" })).toBe(
      toolCacheFingerprint({ serverName: "s", config: { ...stdio, cwd: "/abs" }, cwd: "/q" }),
    );
    expect(toolCacheFingerprint({ serverName: "s", config: http, cwd: "/p" })).toBe(
      toolCacheFingerprint({ serverName: "s", config: http, cwd: "/q" }),
    );
  });
});

describe("MCPToolCache", () => {
  it("keeps entries in memory by default", async () => {
    const cache = new MCPToolCache();
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(2) });
    expect(await cache.get({ serverName: "s", config: stdio, cwd: "/p" })).toEqual(sampleTools(2));
    expect(await new MCPToolCache().get({ serverName: "s", config: stdio, cwd: "/p" })).toBeNull();
  });

  it("uses a given Keyv as it is, with its own namespace", async () => {
    const map = new Map<string, unknown>();
    const keyv = new Keyv({ store: map, namespace: "agent" });
    const cache = new MCPToolCache(keyv, { key: testCacheKey });
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(2) });
    expect(await cache.get({ serverName: "s", config: stdio, cwd: "/p" })).toEqual(sampleTools(2));
    const [key] = [...map.keys()];
    expect(key).toMatch(/^agent:mcp-rt:[0-9a-f]{64}$/);
    // Keyed: not the fingerprint anyone who knows the config can compute.
    expect(key).not.toContain(toolCacheFingerprint({ serverName: "s", config: stdio, cwd: "/p" }));
  });

  it("warns once when a given Keyv swallows its store's errors", async () => {
    const probe = probeStore(new Map());
    const logger = recordingLogger();
    const cache = new MCPToolCache(new Keyv({ store: probe }), { logger, key: testCacheKey });
    probe.mode = "fail";
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(1) });
    expect(await cache.get({ serverName: "s", config: stdio, cwd: "/p" })).toBeNull();
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(1) });
    expect(logger.count("warn")).toBe(1);
    probe.mode = "pass";
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(1) });
    expect(await cache.get({ serverName: "s", config: stdio, cwd: "/p" })).toEqual(sampleTools(1));
    expect(logger.count("info")).toBe(1);
  });

  it("does not cache tools that are not valid tool definitions, and says why", async () => {
    const probe = probeStore(new Map());
    const logger = recordingLogger();
    const cache = new MCPToolCache(probe, { logger, key: testCacheKey });
    await cache.set(
      { serverName: "s", config: stdio, cwd: "/p" },
      { tools: [{ name: "broken" } as MCPToolDefinition] },
    );
    expect(probe.writes).toEqual([]);
    expect(logger.lines[0]?.message).toMatch(/"s".*tools\.0\.inputSchema/);
  });

  it("keeps only the known fields of tools and serverInfo", async () => {
    const cache = new MCPToolCache();
    const tool = { ...sampleTools(1)[0], _meta: { secret: "x" }, icons: [] } as unknown as MCPToolDefinition;
    const serverInfo = { name: "srv", version: "1.0.0", websiteUrl: "https://example.com" };
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: [tool], serverInfo });
    const entry = await cache.getEntry({ serverName: "s", config: stdio, cwd: "/p" });
    expect(entry?.tools).toEqual(sampleTools(1));
    expect(entry?.serverInfo).toEqual(serverInfo);
    expect(entry?.version).toBe(CACHE_FORMAT_VERSION);
  });

  it("keeps a server's resources, templates, prompts and instructions beside its tools", async () => {
    const cache = new MCPToolCache();
    const content = {
      resources: [{ uri: "demo://a", name: "a", mimeType: "text/plain", size: 3 }],
      resourceTemplates: [{ uriTemplate: "demo://{id}", name: "by id" }],
      prompts: [{ name: "greet", arguments: [{ name: "who", required: true }] }],
      instructions: "Use the notes first.",
    };
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(1), ...content });
    expect(await cache.getEntry({ serverName: "s", config: stdio, cwd: "/p" })).toMatchObject({
      tools: sampleTools(1),
      ...content,
    });
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(1) });
    const plain = await cache.getEntry({ serverName: "s", config: stdio, cwd: "/p" });
    expect(plain?.resources).toBeUndefined();
    expect(plain?.prompts).toBeUndefined();
  });

  it("keeps how long the server took to come up; an entry written without it has none", async () => {
    const cache = new MCPToolCache();
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(1), startMs: 840.5 });
    expect((await cache.getEntry({ serverName: "s", config: stdio, cwd: "/p" }))?.startMs).toBe(840.5);
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(1) });
    const entry = await cache.getEntry({ serverName: "s", config: stdio, cwd: "/p" });
    expect(entry?.tools).toEqual(sampleTools(1));
    expect(entry).not.toHaveProperty("startMs");
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, "900"])(
    "drops a start time of %s and keeps the tools",
    async (startMs) => {
      const logger = recordingLogger();
      const cache = new MCPToolCache(new Map(), { logger });
      await cache.set(
        { serverName: "s", config: stdio, cwd: "/p" },
        { tools: sampleTools(1), startMs: startMs as number },
      );
      const entry = await cache.getEntry({ serverName: "s", config: stdio, cwd: "/p" });
      expect(entry?.tools).toEqual(sampleTools(1));
      expect(entry).not.toHaveProperty("startMs");
      expect(logger.lines.map((line) => line.message).join("\n")).toContain(
        'not keeping the start time of "s"',
      );
    },
  );

  it("reads an entry of this version holding a field it does not know, as a reader without startMs reads one with it", async () => {
    const map = new Map<string, unknown>();
    await new MCPToolCache(map, { key: testCacheKey }).set(
      { serverName: "s", config: stdio, cwd: "/p" },
      { tools: sampleTools(1), startMs: 120 },
    );
    rewriteSigned(map, { laterField: { any: "thing" } });
    const entry = await new MCPToolCache(map, { key: testCacheKey }).getEntry({
      serverName: "s",
      config: stdio,
      cwd: "/p",
    });
    expect(entry?.tools).toEqual(sampleTools(1));
    expect(entry?.startMs).toBe(120);
  });

  it("refuses a signed entry whose startMs is not a number (a writer that broke the format)", async () => {
    const map = new Map<string, unknown>();
    await new MCPToolCache(map, { key: testCacheKey }).set(
      { serverName: "s", config: stdio, cwd: "/p" },
      { tools: sampleTools(1), startMs: 120 },
    );
    rewriteSigned(map, { startMs: "slow" });
    expect(
      await new MCPToolCache(map, { key: testCacheKey }).getEntry({
        serverName: "s",
        config: stdio,
        cwd: "/p",
      }),
    ).toBeNull();
  });

  it("keeps the era a server speaks, and its discover result where its scope says", async () => {
    const cache = new MCPToolCache();
    const discover = { supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, cacheScope: "public" };
    const era = {
      era: "modern" as const,
      protocolVersion: "2026-07-28",
      discover,
      decidedAt: 1_700_000_000_000,
    };
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(1), era });
    expect((await cache.getEntry({ serverName: "s", config: stdio, cwd: "/p" }))?.era).toEqual(era);
    // A discover result without a scope is private (SEP-2549): kept with the lists, under the reader's context.
    const { cacheScope: _public, ...unscoped } = discover;
    const mine = { ...era, discover: unscoped };
    await cache.set(
      { serverName: "s", config: stdio, cwd: "/p" },
      { tools: sampleTools(1), era: mine, authContext: "ann" },
    );
    const read = await cache.read({ serverName: "s", config: stdio, cwd: "/p" }, { authContext: "ann" });
    expect(read.entry?.era).toEqual(mine);
    expect(read.facts?.era).toEqual({
      era: "modern",
      protocolVersion: "2026-07-28",
      decidedAt: era.decidedAt,
    });
    const legacy = { era: "legacy" as const, protocolVersion: "2025-11-25", decidedAt: 1 };
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(1), era: legacy });
    expect((await cache.getEntry({ serverName: "s", config: stdio, cwd: "/p" }))?.era).toEqual(legacy);
  });

  it("still caches the tools when the era is malformed", async () => {
    const cache = new MCPToolCache();
    await cache.set(
      { serverName: "s", config: stdio, cwd: "/p" },
      { tools: sampleTools(1), era: { era: "future", decidedAt: 1 } as never },
    );
    const entry = await cache.getEntry({ serverName: "s", config: stdio, cwd: "/p" });
    expect(entry?.tools).toEqual(sampleTools(1));
    expect(entry?.era).toBeUndefined();
  });

  it("still caches the tools when serverInfo is malformed", async () => {
    const cache = new MCPToolCache();
    await cache.set(
      { serverName: "s", config: stdio, cwd: "/p" },
      { tools: sampleTools(1), serverInfo: { name: 42 } as never },
    );
    const entry = await cache.getEntry({ serverName: "s", config: stdio, cwd: "/p" });
    expect(entry?.tools).toEqual(sampleTools(1));
    expect(entry?.serverInfo).toBeUndefined();
  });

  it("never throws, even for a config it cannot fingerprint", async () => {
    const logger = recordingLogger();
    const cache = new MCPToolCache(undefined, { logger });
    const odd = { command: "x", env: { N: 1n } } as unknown as MCPServerConfig;
    await expect(cache.get({ serverName: "s", config: odd })).resolves.toBeNull();
    await expect(
      cache.set({ serverName: "s", config: odd }, { tools: sampleTools(1) }),
    ).resolves.toBeUndefined();
    await expect(cache.delete({ serverName: "s", config: odd })).resolves.toBeUndefined();
    expect(logger.count("warn")).toBe(3);
  });

  it("rejects a non-positive TTL or timeout when it is made", () => {
    for (const options of [{ ttlMs: 0 }, { readTimeoutMs: -1 }, { writeTimeoutMs: Number.NaN }]) {
      const make = (): MCPToolCache => new MCPToolCache(undefined, options);
      expect(make).toThrowError(McpRtError);
      expect(make).toThrowError(/must be a positive number/);
    }
  });

  it("delete() removes an entry", async () => {
    const cache = new MCPToolCache();
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(1) });
    await cache.delete({ serverName: "s", config: stdio, cwd: "/p" });
    expect(await cache.get({ serverName: "s", config: stdio, cwd: "/p" })).toBeNull();
  });

  it("close() disconnects the store once; afterwards reads miss and writes do nothing", async () => {
    let disconnects = 0;
    const map = new Map<string, unknown>();
    const store = Object.assign(new EventEmitter(), {
      opts: {},
      get: async (key: string) => map.get(key),
      set: async (key: string, value: unknown) => {
        map.set(key, value);
      },
      delete: async (key: string) => map.delete(key),
      clear: async () => map.clear(),
      disconnect: async () => {
        disconnects++;
      },
    }) as unknown as KeyvStoreAdapter;
    {
      await using cache = new MCPToolCache(store, { key: testCacheKey });
      await cache.set({ serverName: "s", config: http }, { tools: sampleTools(1) });
      expect(await cache.get({ serverName: "s", config: http })).toEqual(sampleTools(1));
      await cache.close();
      expect(await cache.get({ serverName: "s", config: http })).toBeNull();
      await cache.set({ serverName: "t", config: http }, { tools: sampleTools(1) });
      expect(map.size).toBe(1);
    }
    expect(disconnects).toBe(1);
  });
});

describe("MCPToolCache: the startup notes and slow reads", () => {
  it("forgets a note that a server missed the startup wait after missedStartupTtlMs", async () => {
    const cache = new MCPToolCache(new Map(), { missedStartupTtlMs: 200 });
    await cache.noteMissedStartup({ serverName: "s", config: stdio, cwd: "/p" }, { waitMs: 5000 });
    expect((await cache.read({ serverName: "s", config: stdio, cwd: "/p" })).missedStartup).toMatchObject({
      waitMs: 5000,
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await cache.read({ serverName: "s", config: stdio, cwd: "/p" })).toEqual({ entry: null });
  });

  it("lands writes of one server in the order they were made: a slow note never replaces the tools after it", async () => {
    const probe = probeStore(new Map());
    const cache = new MCPToolCache(probe, { key: testCacheKey });
    probe.mode = "slow";
    probe.delayMs = 300;
    const note = cache.noteMissedStartup({ serverName: "s", config: stdio, cwd: "/p" }, { waitMs: 5000 });
    // The tools are written while the note is still on its way to the store.
    await new Promise((resolve) => setTimeout(resolve, 20));
    probe.mode = "pass";
    await Promise.all([
      note,
      cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(2) }),
    ]);
    expect(await cache.get({ serverName: "s", config: stdio, cwd: "/p" })).toEqual(sampleTools(2));
  });

  it("says how long a read it gave up on was waited for, and what the late answer held", async () => {
    const probe = probeStore(new Map());
    const logger = recordingLogger();
    const cache = new MCPToolCache(probe, { key: testCacheKey, logger, readTimeoutMs: 30 });
    await cache.set({ serverName: "s", config: stdio, cwd: "/p" }, { tools: sampleTools(1) });
    probe.mode = "slow";
    probe.delayMs = 300;
    const read = await cache.read({ serverName: "s", config: stdio, cwd: "/p" });
    expect(read.entry).toBeNull();
    expect((await read.late)?.entry?.tools).toEqual(sampleTools(1));
    const messages = logger.lines.map((line) => `${line.level} ${line.message}`);
    expect(messages).toContainEqual(
      expect.stringMatching(/^warn .*did not answer within 30 ms \(reading "s"\); startup goes on/),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(/^debug .*read of "s" not answered after \d+ ms \(timers late by \d+ ms/),
    );
    expect(messages).toContainEqual(expect.stringMatching(/^debug .*late read of "s" answered .*an entry/));
  });
});

/** Changes the one entry in `map` (as Keyv keeps it: JSON text) and signs it again with the tests' key, as a writer holding it would. */
function rewriteSigned(map: Map<string, unknown>, change: Record<string, unknown>): void {
  const [key, raw] = [...map][0] ?? [];
  if (key === undefined) throw new Error("no entry stored");
  const stored = JSON.parse(String(raw)) as { value: Record<string, unknown> };
  const { mac: _old, ...fields } = { ...stored.value, ...change };
  map.set(
    key,
    JSON.stringify({ ...stored, value: { ...fields, mac: new CacheKey(testCacheKey).sign(fields) } }),
  );
}
