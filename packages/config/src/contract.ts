import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import type { AuthStorage, CapabilitySource, DiscoveryContext, Logger } from "./types.js";

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

  it("gives the same answer every time it is asked", () =>
    inFolders(async (ctx) => {
      for (const level of fixture.levels) await fixture.writeServer(ctx, `contract-${level}`, level);
      const source = fixture.source();
      assert.deepEqual(await source.load(ctx), await source.load(ctx));
    }));
}

/**
 * The {@link AuthStorage} contract: what sign-in and API keys rely on from a
 * credential store. `makeStorage` returns a handle on the store under test;
 * cases use unique keys, so a shared store (a Redis, a keychain) is fine.
 *
 * @example
 * ```ts
 * import { it } from "vitest";
 * import { authStorageContractTests } from "@mcp-rt/config/contract";
 * authStorageContractTests(it, () => createAuthStorage("memory:"));
 * ```
 */
export function authStorageContractTests(
  it: ContractIt,
  makeStorage: () => AuthStorage | Promise<AuthStorage>,
): void {
  const unique = (label: string): string =>
    `contract:${label}:${Date.now().toString(36)}:${Math.random().toString(36).slice(2)}`;

  it("returns undefined for a key never set, and deleting it is no error", async () => {
    const storage = await makeStorage();
    const key = unique("missing");
    assert.equal(await storage.get(key), undefined);
    await storage.delete(key);
  });

  it("gives back exactly what was set, overwritten by a later set, gone after delete", async () => {
    const storage = await makeStorage();
    const key = unique("cycle");
    await storage.set(key, "first");
    assert.equal(await storage.get(key), "first");
    await storage.set(key, "second");
    assert.equal(await storage.get(key), "second");
    await storage.delete(key);
    assert.equal(await storage.get(key), undefined);
  });

  it("keeps values byte for byte: spaces, newlines, unicode, JSON, 64 KB", async () => {
    const storage = await makeStorage();
    const values = [
      " padded ",
      "line\nbreak\r\n",
      "ünïcödé ✓ 🔑",
      JSON.stringify({ a: [1, "x"] }),
      "x".repeat(65_536),
      "",
    ];
    const keys = values.map((_, i) => unique(`value-${i}`));
    for (const [i, key] of keys.entries()) await storage.set(key, values[i]!);
    for (const [i, key] of keys.entries()) assert.equal(await storage.get(key), values[i]);
    for (const key of keys) await storage.delete(key);
  });

  it("takes keys as they come: URLs, colons, slashes, unicode", async () => {
    const storage = await makeStorage();
    const keys = [
      unique("https://mcp.example.com/mcp?x=1#frag"),
      unique("issuer|https://auth.example.com/"),
      unique("a/b\\c"),
      unique("ключ"),
    ];
    for (const [i, key] of keys.entries()) await storage.set(key, `v${i}`);
    for (const [i, key] of keys.entries()) assert.equal(await storage.get(key), `v${i}`);
    for (const key of keys) await storage.delete(key);
  });

  it("loses no write when many happen at once", async () => {
    const storage = await makeStorage();
    const keys = Array.from({ length: 20 }, (_, i) => unique(`concurrent-${i}`));
    await Promise.all(keys.map((key, i) => storage.set(key, `v${i}`)));
    const read = await Promise.all(keys.map((key) => storage.get(key)));
    assert.deepEqual(
      read,
      keys.map((_, i) => `v${i}`),
    );
    await Promise.all(keys.map((key) => storage.delete(key)));
  });

  it("a second handle on the same store sees the first one's writes", async () => {
    const key = unique("shared");
    const first = await makeStorage();
    await first.set(key, "shared value");
    const second = await makeStorage();
    assert.equal(await second.get(key), "shared value");
    await second.delete(key);
    assert.equal(await first.get(key), undefined);
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
