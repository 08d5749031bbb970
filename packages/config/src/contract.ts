import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { AuthStorage } from "./types.js";

/** The `it` (or `test`) function of any test runner: vitest, jest, `node:test`. */
export type ContractIt = (name: string, fn: () => void | Promise<void>) => unknown;

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
