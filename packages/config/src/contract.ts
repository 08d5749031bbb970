import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import type { AuthStorage } from "./model/auth-storage.js";
import type { Logger } from "./model/logger.js";
import type { CapabilitySource, DiscoveryContext } from "./types.js";

/** The `it` (or `test`) function of any test runner: vitest, jest, `node:test`. */
export type ContractIt = (name: string, fn: () => void | Promise<void>) => unknown;

/** A config level a source reads. */
export type SourceLevel = "user" | "project";

/** How the capability-source contract drives one source. */
export interface CapabilitySourceFixture {
  /** Makes the source under test. */
  source(): CapabilitySource;
  /** The levels the source reads (Claude Desktop has no project level). */
  levels: readonly SourceLevel[];
  /**
   * Writes, in the folders of `ctx`, the source's file at `level` with one
   * valid stdio server named `name` (command `node`, no placeholders).
   */
  writeServer(ctx: DiscoveryContext, name: string, level: SourceLevel): Promise<void>;
  /** Writes the source's file at `level` with content it cannot parse. Omit when nothing is unparseable. */
  writeBroken?(ctx: DiscoveryContext, level: SourceLevel): Promise<void>;
}

/** Runs `body` with a fresh home and project folder, removed afterwards. */
async function inFolders(body: (ctx: DiscoveryContext) => Promise<void>): Promise<void> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "mcp-rt-source-contract-")));
  const ctx: DiscoveryContext = {
    cwd: join(root, "project"),
    homeDir: join(root, "home"),
    env: {},
    platform: process.platform,
  };
  await mkdir(ctx.cwd, { recursive: true });
  await mkdir(ctx.homeDir, { recursive: true });
  try {
    await body(ctx);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/**
 * The {@link CapabilitySource} contract: what `loadAllMCPConfigs` relies on
 * from every source. Run it for a source of your own with a fixture that
 * writes its files. Uses `node:assert`, so it works with any runner.
 *
 * @example
 * ```ts
 * import { it } from "vitest";
 * import { capabilitySourceContractTests } from "@mcp-rt/config/contract";
 * capabilitySourceContractTests(it, { source: () => createMySource(), levels: ["user"], writeServer: … });
 * ```
 */
export function capabilitySourceContractTests(it: ContractIt, fixture: CapabilitySourceFixture): void {
  it("has an id, a display name and a priority", () => {
    const source = fixture.source();
    assert.match(source.id, /^[a-z0-9-]+$/);
    assert.ok(source.name.trim().length > 0);
    assert.ok(Number.isFinite(source.priority));
  });

  it("finds nothing, and no issue, in empty folders", () =>
    inFolders(async (ctx) => {
      const { servers, issues } = await fixture.source().load(ctx);
      assert.deepEqual({ servers, issues }, { servers: [], issues: [] });
    }));

  for (const level of fixture.levels) {
    it(`finds a ${level}-level server with its source: provider, name, file and level`, () =>
      inFolders(async (ctx) => {
        await fixture.writeServer(ctx, "contract", level);
        const source = fixture.source();
        const { servers, issues } = await source.load(ctx);
        assert.deepEqual(issues, []);
        const found = servers.filter((server) => server.name === "contract");
        assert.equal(found.length, 1, `one entry named "contract", got ${JSON.stringify(servers)}`);
        const [server] = found;
        assert.equal(server?.source.provider, source.id);
        assert.equal(server?.source.providerName, source.name);
        assert.equal(server?.source.level, level);
        assert.ok(isAbsolute(server?.source.path ?? ""), "the file's path is absolute");
        assert.ok(existsSync(server?.source.path ?? ""), "the file's path is the file that was read");
        assert.equal((server?.config as { command?: unknown } | undefined)?.command, "node");
        // Entries are plain data: what a UI serialises, a worker receives.
        assert.deepEqual(JSON.parse(JSON.stringify(server?.config)), server?.config);
      }));
  }

  if (fixture.levels.includes("project")) {
    it("reads no project-level file when enableProjectConfig is false", () =>
      inFolders(async (ctx) => {
        await fixture.writeServer(ctx, "contract", "project");
        const { servers } = await fixture.source().load({ ...ctx, enableProjectConfig: false });
        assert.deepEqual(
          servers.filter((server) => server.source.level === "project"),
          [],
        );
      }));
  }

  if (fixture.writeBroken) {
    const writeBroken = fixture.writeBroken.bind(fixture);
    for (const level of fixture.levels) {
      it(`reports a broken ${level}-level file as an issue naming it, and does not throw`, () =>
        inFolders(async (ctx) => {
          await writeBroken(ctx, level);
          const { issues } = await fixture.source().load(ctx);
          assert.ok(issues.length > 0, "a broken file is an issue");
          for (const issue of issues) {
            assert.ok(isAbsolute(issue.path), `the issue names the file: ${issue.path}`);
            assert.ok(issue.message.trim().length > 0);
          }
        }));
    }
  }

  for (const level of fixture.levels) {
    it(`names its ${level}-level file in paths (when it has paths) before the file exists`, () =>
      inFolders(async (ctx) => {
        const source = fixture.source();
        if (!source.paths) return;
        const before = await source.paths(ctx);
        for (const path of before) assert.ok(isAbsolute(path), `paths are absolute: ${path}`);
        await fixture.writeServer(ctx, "contract", level);
        const { servers } = await source.load(ctx);
        for (const server of servers) {
          assert.ok(
            before.includes(server.source.path),
            `${server.source.path} is in ${JSON.stringify(before)}`,
          );
        }
        if (level === "project") {
          const off = await source.paths({ ...ctx, enableProjectConfig: false });
          for (const server of servers) {
            assert.ok(
              !off.includes(server.source.path),
              "no project-level file with enableProjectConfig: false",
            );
          }
        }
      }));
  }

  it("gives the same answer every time it is asked", () =>
    inFolders(async (ctx) => {
      for (const level of fixture.levels) await fixture.writeServer(ctx, `contract-${level}`, level);
      const source = fixture.source();
      assert.deepEqual(await source.load(ctx), await source.load(ctx));
    }));
}

/**
 * Returns a handle on the storage under test. Two calls must reach the same
 * entries (for a memory store: return the same instance); every case uses keys
 * of its own, so a shared store (Redis, a keychain) is fine.
 */
export type MakeAuthStorage = () => AuthStorage | Promise<AuthStorage>;

/**
 * The contract of an {@link AuthStorage}: run it against your storage to prove
 * that API keys and OAuth sign-ins survive in it (round trips, deletes, odd
 * keys, large values, a second handle, concurrent writers). Uses `node:assert`,
 * so it works with any runner. Handles are closed after each case.
 *
 * @param it - your runner's `it`/`test`.
 * @param makeStorage - see {@link MakeAuthStorage}.
 * @example
 * ```ts
 * import { it } from "vitest";
 * import { createFileAuthStorage } from "@mcp-rt/config";
 * import { authStorageContractTests } from "@mcp-rt/config/contract";
 * authStorageContractTests(it, () => createFileAuthStorage(file));
 * ```
 */
export function authStorageContractTests(it: ContractIt, makeStorage: MakeAuthStorage): void {
  const test = (name: string, body: (storage: AuthStorage, key: (name: string) => string) => Promise<void>) =>
    it(name, async () => {
      const prefix = `contract-${randomUUID()}`;
      const storage = await makeStorage();
      try {
        await body(storage, (name) => `${prefix}:${name}`);
      } finally {
        await storage.close?.();
      }
    });

  test("a missing key reads as undefined", async (storage, key) => {
    assert.equal(await storage.get(key("missing")), undefined);
  });

  test("set then get returns the value; a second set replaces it", async (storage, key) => {
    await storage.set(key("api"), "sk-first");
    assert.equal(await storage.get(key("api")), "sk-first");
    await storage.set(key("api"), "sk-second");
    assert.equal(await storage.get(key("api")), "sk-second");
  });

  test("delete removes the key, and deleting a missing key is fine", async (storage, key) => {
    await storage.set(key("gone"), "value");
    await storage.delete(key("gone"));
    assert.equal(await storage.get(key("gone")), undefined);
    await storage.delete(key("never-there"));
  });

  test("keys that look like URLs, paths or JSON are kept apart", async (storage, key) => {
    const keys = [
      key("oauth:https://mcp.example.com/mcp"),
      key("oauth:https://mcp.example.com/mcp/"),
      key("a/b\\c d"),
      key('{"k":1}'),
      key("ключ 🔑"),
    ];
    await Promise.all(keys.map((k, i) => storage.set(k, `value-${i}`)));
    for (const [i, k] of keys.entries()) assert.equal(await storage.get(k), `value-${i}`);
    await storage.delete(keys[0]!);
    assert.equal(await storage.get(keys[1]!), "value-1");
  });

  test("values keep every character, and a 2 KiB JSON value survives", async (storage, key) => {
    const json = JSON.stringify({ access_token: "x".repeat(1800), scope: "read write", note: 'ünï 🔐\n\t"' });
    await storage.set(key("json"), json);
    assert.equal(await storage.get(key("json")), json);
  });

  test("a second handle sees the first one's writes and deletes", async (storage, key) => {
    const other = await makeStorage();
    try {
      await storage.set(key("shared"), "from-first");
      assert.equal(await other.get(key("shared")), "from-first");
      await other.delete(key("shared"));
      assert.equal(await storage.get(key("shared")), undefined);
    } finally {
      if (other !== storage) await other.close?.();
    }
  });

  test("concurrent writes of different keys all land", async (storage, key) => {
    const keys = Array.from({ length: 12 }, (_, i) => key(`concurrent-${i}`));
    await Promise.all(keys.map((k, i) => storage.set(k, `v${i}`)));
    const values = await Promise.all(keys.map((k) => storage.get(k)));
    assert.deepEqual(
      values,
      keys.map((_, i) => `v${i}`),
    );
  });
}

/**
 * The {@link Logger} contract: every package logs through it and must never
 * be broken by it. Each level takes a message, with or without data (an
 * error, an object, even a circular one), and returns without throwing.
 *
 * @example
 * ```ts
 * import { it } from "vitest";
 * import { loggerContractTests } from "@mcp-rt/config/contract";
 * loggerContractTests(it, () => createMyLogger());
 * ```
 */
export function loggerContractTests(it: ContractIt, makeLogger: () => Logger | Promise<Logger>): void {
  const levels = ["debug", "info", "warn", "error"] as const;
  for (const level of levels) {
    it(`${level}(message, data?) takes what the packages pass and does not throw`, async () => {
      const logger = await makeLogger();
      assert.equal(typeof logger[level], "function");
      const circular: Record<string, unknown> = { name: "circular" };
      circular.self = circular;
      logger[level](`contract ${level} message`);
      logger[level](`contract ${level} with an error`, new Error("contract error"));
      logger[level](`contract ${level} with data`, { server: "s", ms: 12, nested: { list: [1, 2] } });
      logger[level](`contract ${level} with circular data`, circular);
      logger[level](`contract ${level} with undefined data`, undefined);
    });
  }
}
