import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import type { MCPStdioServerConfig } from "@mcp-rt/config";
import { CacheKey } from "./cache-key.js";
import { type Case, type ContractIt, http, type MakeStore, sleep, stdio, withCase } from "./contract-case.js";
import { rawGet, rawSet, sampleTools } from "./contract-support.js";
import { CACHE_FORMAT_VERSION, toolCacheFingerprint, toolCacheKey } from "./fingerprint.js";

export type { ContractIt, MakeStore } from "./contract-case.js";

/**
 * The contract of a store behind `MCPToolCache`: run it against your store to
 * prove the cache keeps its promises on it (hits, misses, invalidation, TTL,
 * corrupt data, failures, slowness, concurrent writers, namespaces, size).
 * Uses `node:assert`, so it works with any runner.
 *
 * @param it - your runner's `it`/`test`.
 * @param makeStore - returns a handle on the store under test (a keyv store
 *   adapter or a `Map`); called once per case and disconnected after it.
 *
 * @example
 * ```ts
 * import { it } from "vitest";
 * import { createFileStore } from "@mcp-rt/cache";
 * import { toolCacheContractTests } from "@mcp-rt/cache/contract";
 * toolCacheContractTests(it, () => createFileStore(tempDir));
 * ```
 */
export function toolCacheContractTests(it: ContractIt, makeStore: MakeStore): void {
  const test = (name: string, body: (c: Case) => Promise<void>): void => {
    it(name, withCase(makeStore, body));
  };

  test("hit: returns the tools written for a server, also to another cache on the same store", async (c) => {
    const tools = sampleTools(3);
    await c.cache().set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools });
    assert.deepEqual(await c.cache().get({ serverName: "github", config: stdio, cwd: "/work/a" }), tools);
    const info = { name: "github-server", version: "1.2.3" };
    await c.cache().set({ serverName: "remote", config: http }, { tools, serverInfo: info });
    const entry = await c.cache().getEntry({ serverName: "remote", config: http });
    assert.deepEqual(entry?.serverInfo, info);
    assert.ok(entry && Math.abs(Date.now() - entry.savedAt) < 60_000);
    assert.equal(c.logger.count("warn"), 0);
  });

  test("private lists: kept per auth context, never read under another or without one", async (c) => {
    const hint = (cacheScope: "public" | "private") => ({
      ttlMs: 60_000,
      cacheScope,
      receivedAt: Date.now(),
    });
    const remote = { serverName: "remote", config: http };
    const as = (authContext: string | PromiseLike<string>) => ({ authContext });
    await c.cache().set(remote, { tools: sampleTools(2, "all"), toolsHint: hint("public") });
    // A public list is every reader's.
    assert.equal((await c.cache().getEntry(remote))?.toolsHint?.cacheScope, "public");
    assert.deepEqual(await c.cache().get(remote, as("bob")), sampleTools(2, "all"));
    const discover = { supportedVersions: ["2026-07-28"], capabilities: {}, cacheScope: "private" };
    const era = { era: "modern" as const, protocolVersion: "2026-07-28", discover, decidedAt: Date.now() };
    await c.cache().set(remote, {
      tools: sampleTools(3, "ann"),
      toolsHint: hint("private"),
      era,
      startMs: 40,
      authContext: "ann",
    });
    // The plain entry now holds the server's facts alone: its era without the private discover result.
    const plain = await c.cache().read(remote);
    assert.equal(plain.entry, null);
    assert.deepEqual(plain.facts, {
      era: { era: "modern", protocolVersion: "2026-07-28", decidedAt: era.decidedAt },
      startMs: 40,
    });
    const ann = (await c.cache().read(remote, as("ann"))).entry;
    assert.deepEqual(ann?.tools, sampleTools(3, "ann"));
    assert.deepEqual(ann?.era, era);
    assert.deepEqual(
      (await c.cache().read(remote, as(Promise.resolve("ann")))).entry?.tools,
      sampleTools(3, "ann"),
    );
    const bob = await c.cache().read(remote, as("bob"));
    assert.equal(bob.entry, null);
    assert.equal(bob.facts?.startMs, 40);
    // A context that could not be made (its `!command` failed) reads nothing private.
    assert.equal((await c.cache().read(remote, as(Promise.reject(new Error("no"))))).entry, null);
    await c
      .cache()
      .set(remote, { tools: sampleTools(1, "bob"), toolsHint: hint("private"), authContext: "bob" });
    assert.deepEqual((await c.cache().read(remote, as("ann"))).entry?.tools, sampleTools(3, "ann"));
    assert.deepEqual((await c.cache().read(remote, as("bob"))).entry?.tools, sampleTools(1, "bob"));
    await c.cache().delete(remote, { authContext: "ann" });
    assert.equal((await c.cache().read(remote, as("ann"))).entry, null);
    // A list private by its discover result or by the lists beside it is private too.
    const other = { serverName: "other", config: http };
    await c.cache().set(other, {
      tools: sampleTools(1),
      toolsHint: hint("public"),
      cacheScope: "private",
      authContext: "ann",
    });
    assert.equal(await c.cache().get(other), null);
    assert.deepEqual(await c.cache().get(other, as("ann")), sampleTools(1));
    // Without an auth context a private list is not kept at all.
    const third = { serverName: "third", config: http };
    await c.cache().set(third, { tools: sampleTools(1), toolsHint: hint("private"), era });
    assert.equal(await c.cache().get(third), null);
    assert.equal(await c.cache().get(third, as("ann")), null);
    assert.equal((await c.cache().read(third)).facts?.era?.era, "modern");
    assert.equal(c.logger.count("warn"), 0);
  });

  test("miss: null for a server never written, and an empty tool list is a hit", async (c) => {
    const cache = c.cache();
    assert.equal(await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }), null);
    await cache.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: [] });
    assert.deepEqual(await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }), []);
    assert.equal(await cache.get({ serverName: "gitlab", config: stdio, cwd: "/work/a" }), null);
    assert.equal(c.logger.count("warn"), 0);
  });

  test("config change: a changed config misses, key order does not matter", async (c) => {
    const cache = c.cache();
    await cache.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: sampleTools(2) });
    assert.equal(
      await cache.get({
        serverName: "github",
        config: { ...stdio, args: ["server.js", "--port", "1"] },
        cwd: "/work/a",
      }),
      null,
    );
    assert.equal(
      await cache.get({
        serverName: "github",
        config: { ...stdio, env: { LOG_LEVEL: "info" } },
        cwd: "/work/a",
      }),
      null,
    );
    assert.equal(await cache.get({ serverName: "github", config: { ...http }, cwd: "/work/a" }), null);
    const reordered: MCPStdioServerConfig = {
      env: { LOG_LEVEL: "debug" },
      args: stdio.args ?? [],
      command: "node",
    };
    assert.deepEqual(
      await cache.get({ serverName: "github", config: reordered, cwd: "/work/a" }),
      sampleTools(2),
    );
  });

  test("cwd change: stdio entries are per working folder, HTTP entries are shared", async (c) => {
    const cache = c.cache();
    await cache.set({ serverName: "local", config: stdio, cwd: "/work/a" }, { tools: sampleTools(2, "a") });
    await cache.set({ serverName: "local", config: stdio, cwd: "/work/b" }, { tools: sampleTools(2, "b") });
    assert.deepEqual(
      await cache.get({ serverName: "local", config: stdio, cwd: "/work/a" }),
      sampleTools(2, "a"),
    );
    assert.deepEqual(
      await cache.get({ serverName: "local", config: stdio, cwd: "/work/b/../a/" }),
      sampleTools(2, "a"),
    );
    assert.deepEqual(
      await cache.get({ serverName: "local", config: stdio, cwd: "/work/b" }),
      sampleTools(2, "b"),
    );
    assert.equal(await cache.get({ serverName: "local", config: stdio, cwd: "/work/c" }), null);
    assert.equal(
      await cache.get({ serverName: "local", config: { ...stdio, cwd: "sub" }, cwd: "/work/a" }),
      null,
    );
    await cache.set({ serverName: "remote", config: http, cwd: "/work/a" }, { tools: sampleTools(1) });
    assert.deepEqual(
      await cache.get({ serverName: "remote", config: http, cwd: "/elsewhere" }),
      sampleTools(1),
    );
  });

  test("version change: entries of another cache format version are not read", async (c) => {
    const cache = c.cache();
    const key = c.key("github", stdio, "/work/a");
    await cache.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: sampleTools(2) });
    const stored = JSON.parse(String(await rawGet(c.store, key))) as { value: Record<string, unknown> };
    stored.value.version = CACHE_FORMAT_VERSION + 1;
    await rawSet(c.store, key, JSON.stringify(stored));
    assert.equal(await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }), null);
    const oldId = new CacheKey(c.secret).entryId(
      toolCacheFingerprint({ serverName: "gitlab", config: stdio, cwd: "/work/a" }, CACHE_FORMAT_VERSION - 1),
    );
    const old = c.signed({
      version: CACHE_FORMAT_VERSION - 1,
      fingerprint: oldId,
      tools: [],
      savedAt: Date.now(),
    });
    await rawSet(c.store, toolCacheKey(c.namespace, oldId), JSON.stringify(old));
    assert.equal(await cache.get({ serverName: "gitlab", config: stdio, cwd: "/work/a" }), null);
    // Signed with the cache's key but of another version, under the current id: still a miss.
    const { mac: _mac, ...fields } = stored.value;
    await rawSet(c.store, key, JSON.stringify(c.signed({ ...fields, version: CACHE_FORMAT_VERSION + 1 })));
    assert.equal(await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }), null);
    assert.equal(c.logger.count("warn"), 0, "another version is a miss, not corruption");
  });

  test("TTL expiry: an entry older than ttlMs reads as null", async (c) => {
    const cache = c.cache({ ttlMs: 1000 });
    await cache.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: sampleTools(1) });
    assert.deepEqual(
      await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
      sampleTools(1),
    );
    await sleep(1600);
    assert.equal(await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }), null);
    await c.cache().set({ serverName: "gitlab", config: stdio, cwd: "/work/a" }, { tools: sampleTools(1) });
    await sleep(20);
    assert.equal(
      await c.cache({ ttlMs: 10 }).get({ serverName: "gitlab", config: stdio, cwd: "/work/a" }),
      null,
      "a reader's shorter TTL wins",
    );
  });

  test("corrupt value: each unreadable entry is null with one warning, never an exception", async (c) => {
    const cache = c.cache();
    const key = c.key("github", stdio, "/work/a");
    const entry = { version: CACHE_FORMAT_VERSION, fingerprint: key.split(":").pop(), savedAt: Date.now() };
    // Signed with the cache's key, so that it is their content that is wrong.
    const corrupt = [
      "{not json",
      JSON.stringify({ value: "a string" }),
      JSON.stringify(c.signed({ ...entry, tools: [{ name: "no-schema" }] })),
      JSON.stringify(c.signed({ ...entry, fingerprint: "0".repeat(64), tools: [] })),
      JSON.stringify(c.signed({ ...entry, tools: "nope" })),
      // Signed, of this version, but of another shape (a writer that changed the format without
      // a new version): not parsed again after the check, so each must still be caught.
      JSON.stringify(c.signed({ ...entry, tools: [{ name: 7, inputSchema: {} }] })),
      JSON.stringify(c.signed({ ...entry, tools: [{ name: "t", inputSchema: "object" }] })),
      JSON.stringify(c.signed({ ...entry, tools: [null] })),
      JSON.stringify(c.signed({ ...entry, tools: [], serverInfo: "srv" })),
      JSON.stringify(c.signed({ ...entry, tools: [], prompts: { name: "p" } })),
      JSON.stringify(c.signed({ ...entry, tools: [], resources: [{ name: "r" }] })),
      JSON.stringify(c.signed({ ...entry, tools: [], prompts: [{ name: "p", arguments: [{}] }] })),
      JSON.stringify(c.signed({ ...entry, tools: [], savedAt: String(entry.savedAt) })),
    ];
    for (const [i, value] of corrupt.entries()) {
      await rawSet(c.store, key, value);
      assert.equal(
        await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
        null,
        `corrupt value #${i}`,
      );
      assert.equal(c.logger.count("warn"), i + 1, `one warning for corrupt value #${i}`);
    }
    await cache.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: sampleTools(2) });
    assert.deepEqual(
      await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
      sampleTools(2),
    );
  });

  test("store failure: get is null, set and delete are no-ops, one warning, then recovery", async (c) => {
    const cache = c.cache({ through: "probe" });
    await cache.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: sampleTools(2) });
    c.probe.mode = "fail";
    for (let i = 0; i < 5; i++) {
      assert.equal(await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }), null);
      await cache.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: sampleTools(1) });
      await cache.delete({ serverName: "github", config: stdio, cwd: "/work/a" });
    }
    assert.equal(c.logger.count("warn"), 1, "a dead store is warned about once");
    c.probe.mode = "pass";
    assert.deepEqual(
      await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
      sampleTools(2),
    );
    await cache.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: sampleTools(3) });
    assert.deepEqual(
      await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
      sampleTools(3),
    );
    assert.equal(c.logger.count("info"), 1, "recovery is logged");
  });

  test("slow store: a read slower than readTimeoutMs is a miss, without waiting for it", async (c) => {
    const cache = c.cache({ through: "probe", readTimeoutMs: 50 });
    await cache.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: sampleTools(2) });
    c.probe.mode = "slow";
    c.probe.delayMs = 1500;
    const results = await Promise.all(
      [1, 2, 3].map(() => cache.get({ serverName: "github", config: stdio, cwd: "/work/a" })),
    );
    assert.deepEqual(results, [null, null, null]);
    assert.equal(c.probe.stalledDone, 0, "the reads returned before the store answered");
    assert.equal(c.logger.count("warn"), 1, "slowness is warned about once");
    c.probe.mode = "pass";
    // A fresh cache: 50 ms is too tight a bound for a healthy read on a loaded machine.
    assert.deepEqual(
      await c.cache({ through: "probe" }).get({ serverName: "github", config: stdio, cwd: "/work/a" }),
      sampleTools(2),
    );
  });

  test("slow store: a read not waited for still hands over what the store answers", async (c) => {
    const cache = c.cache({ through: "probe", readTimeoutMs: 50 });
    await cache.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: sampleTools(2) });
    c.probe.mode = "slow";
    c.probe.delayMs = 600;
    const read = await cache.read({ serverName: "github", config: stdio, cwd: "/work/a" });
    assert.equal(read.entry, null);
    assert.ok(read.late, "a timed-out read hands over the read still under way");
    assert.equal(c.probe.stalledDone, 0, "it returned before the store answered");
    const late = await read.late;
    assert.deepEqual(late.entry?.tools, sampleTools(2));
    c.probe.mode = "pass";
    const quick = await c
      .cache({ through: "probe" })
      .read({ serverName: "github", config: stdio, cwd: "/work/a" });
    assert.equal(quick.late, undefined, "a read in time has nothing late");
  });

  test("missed startup: a note is read back until the server's tools replace it", async (c) => {
    const cache = c.cache();
    await cache.noteMissedStartup({ serverName: "github", config: stdio, cwd: "/work/a" }, { waitMs: 5000 });
    const noted = await cache.read({ serverName: "github", config: stdio, cwd: "/work/a" });
    assert.equal(noted.entry, null);
    assert.equal(noted.missedStartup?.waitMs, 5000);
    assert.ok(noted.missedStartup && Math.abs(Date.now() - noted.missedStartup.at) < 60_000);
    assert.equal(
      await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
      null,
      "a note is no tool list",
    );
    assert.equal(
      (await cache.read({ serverName: "github", config: { ...stdio, args: ["other.js"] }, cwd: "/work/a" }))
        .missedStartup,
      undefined,
      "kept per config, like an entry",
    );
    await cache.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: sampleTools(2) });
    const replaced = await c.cache().read({ serverName: "github", config: stdio, cwd: "/work/a" });
    assert.deepEqual(replaced.entry?.tools, sampleTools(2));
    assert.equal(replaced.missedStartup, undefined);
    assert.equal(c.logger.count("warn"), 0);
  });

  test("concurrent writers: one whole, valid entry survives", async (c) => {
    const writers = Array.from({ length: 8 }, (_, i) => ({
      cache: c.cache(),
      tools: sampleTools(150, `w${i}`),
    }));
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        writers.map((w) =>
          w.cache.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: w.tools }),
        ),
      );
      const read = await c.cache().get({ serverName: "github", config: stdio, cwd: "/work/a" });
      assert.ok(read, `round ${round}: an entry survives`);
      assert.ok(
        writers.some((w) => JSON.stringify(w.tools) === JSON.stringify(read)),
        `round ${round}: the entry is exactly one writer's`,
      );
    }
    assert.equal(c.logger.count("warn"), 0);
  });

  test("namespace isolation: caches with other namespaces neither read nor delete each other", async (c) => {
    const a = c.cache();
    const b = c.cache({ namespace: `${c.namespace}-other` });
    await a.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: sampleTools(2, "a") });
    assert.equal(await b.get({ serverName: "github", config: stdio, cwd: "/work/a" }), null);
    await b.set({ serverName: "github", config: stdio, cwd: "/work/a" }, { tools: sampleTools(2, "b") });
    assert.deepEqual(
      await a.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
      sampleTools(2, "a"),
    );
    await b.delete({ serverName: "github", config: stdio, cwd: "/work/a" });
    assert.equal(await b.get({ serverName: "github", config: stdio, cwd: "/work/a" }), null);
    assert.deepEqual(
      await a.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
      sampleTools(2, "a"),
    );
  });

  test("planted entries: nothing written without the cache's key is served", async (c) => {
    const cache = c.cache();
    const tools = sampleTools(1, "planted");
    const fields = { version: CACHE_FORMAT_VERSION, tools, savedAt: Date.now() };
    // Under the key anyone who knows the config can compute (the unkeyed fingerprint): never read.
    const predictable = toolCacheFingerprint({ serverName: "github", config: stdio, cwd: "/work/a" });
    await rawSet(
      c.store,
      toolCacheKey(c.namespace, predictable),
      JSON.stringify({ value: { ...fields, fingerprint: predictable, mac: "0".repeat(64) } }),
    );
    assert.equal(await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }), null);
    assert.equal(c.logger.count("warn"), 0, "a key the cache never reads is a plain miss");
    // Over the real key (seen by listing the store): without the right check, or signed with
    // another key, or a whole entry of another server copied there: refused and removed.
    const key = c.key("github", stdio, "/work/a");
    const id = key.split(":").pop();
    await c.cache().set({ serverName: "gitlab", config: stdio, cwd: "/work/a" }, { tools: sampleTools(2) });
    const copied = await rawGet(c.store, c.key("gitlab", stdio, "/work/a"));
    const planted = [
      JSON.stringify({ value: { ...fields, fingerprint: id } }),
      JSON.stringify({ value: { ...fields, fingerprint: id, mac: "0".repeat(64) } }),
      JSON.stringify(c.signed({ ...fields, fingerprint: id }, randomBytes(32).toString("hex"))),
      copied,
    ];
    for (const [i, value] of planted.entries()) {
      await rawSet(c.store, key, value);
      assert.equal(
        await cache.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
        null,
        `planted entry #${i}`,
      );
      assert.equal(c.logger.count("warn"), i + 1, `one warning for planted entry #${i}`);
      assert.equal(await rawGet(c.store, key), undefined, `planted entry #${i} removed`);
    }
  });

  test("keys: caches with one key share entries, caches with different keys do not", async (c) => {
    const other = randomBytes(32).toString("hex");
    const fleet = [c.cache(), c.cache({ key: c.secret }), c.cache({ key: Buffer.from(c.secret) })];
    const stranger = c.cache({ key: other });
    await fleet[0]!.set(
      { serverName: "github", config: stdio, cwd: "/work/a" },
      { tools: sampleTools(2, "fleet") },
    );
    for (const member of fleet)
      assert.deepEqual(
        await member.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
        sampleTools(2, "fleet"),
      );
    assert.equal(await stranger.get({ serverName: "github", config: stdio, cwd: "/work/a" }), null);
    await stranger.set(
      { serverName: "github", config: stdio, cwd: "/work/a" },
      { tools: sampleTools(2, "stranger") },
    );
    assert.deepEqual(
      await stranger.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
      sampleTools(2, "stranger"),
    );
    assert.deepEqual(
      await fleet[1]!.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
      sampleTools(2, "fleet"),
    );
    await stranger.delete({ serverName: "github", config: stdio, cwd: "/work/a" });
    assert.deepEqual(
      await fleet[2]!.get({ serverName: "github", config: stdio, cwd: "/work/a" }),
      sampleTools(2, "fleet"),
    );
    assert.equal(c.logger.count("warn"), 0, "other keys' entries are never even read");
  });

  test("no secret in clear: the store sees only keyed ids and the tools", async (c) => {
    const secret = `sk-${randomUUID()}`;
    const cache = c.cache({ through: "probe" });
    await cache.set(
      { serverName: "github", config: { ...stdio, env: { TOKEN: secret } }, cwd: "/work/a" },
      { tools: sampleTools(1) },
    );
    await cache.set(
      { serverName: "remote", config: { ...http, headers: { Authorization: `Bearer ${secret}` } } },
      { tools: sampleTools(1) },
    );
    assert.equal(c.probe.writes.length, 2);
    for (const write of c.probe.writes) {
      assert.ok(
        !`${write.key} ${JSON.stringify(write.value)}`.includes(secret),
        "secret leaked to the store",
      );
      assert.match(write.key, new RegExp(`^${c.namespace}:[0-9a-f]{64}$`));
      assert.ok(
        !write.key.includes(
          toolCacheFingerprint({
            serverName: "github",
            config: { ...stdio, env: { TOKEN: secret } },
            cwd: "/work/a",
          }),
        ),
      );
    }
  });

  test("a 5000-tool entry round-trips", async (c) => {
    const tools = sampleTools(5000);
    const cache = c.cache();
    await cache.set({ serverName: "huge", config: stdio, cwd: "/work/a" }, { tools });
    const read = await c.cache().get({ serverName: "huge", config: stdio, cwd: "/work/a" });
    assert.equal(read?.length, 5000);
    assert.deepEqual(read, tools);
    assert.equal(c.logger.count("warn"), 0);
  });
}
