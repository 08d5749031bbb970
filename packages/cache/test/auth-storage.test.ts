import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createAuthStorage, createKeychainAuthStorage, type KeyringModule } from "@mcp-rt/cache";
import { createRedisAuthStorage } from "@mcp-rt/cache/redis";
import { McpRtError } from "@mcp-rt/config";
import { authStorageContractTests } from "@mcp-rt/config/contract";
import { type RedisServer, redisUnavailable, startRedisServer } from "@mcp-rt/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const missing = redisUnavailable();
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-rt-auth-url-"));
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

function codeOf(make: () => unknown): string | undefined {
  try {
    make();
  } catch (error) {
    return McpRtError.isInstance(error) ? error.code : `not an McpRtError: ${String(error)}`;
  }
  return undefined;
}

describe("createAuthStorage", () => {
  it("defaults to ~/.mcp-rt/auth.json (also for file:)", async () => {
    vi.stubEnv("HOME", dir);
    await createAuthStorage().set("a", "1");
    await createAuthStorage("file:").set("b", "2");
    const file = JSON.parse(await readFile(join(dir, ".mcp-rt", "auth.json"), "utf8"));
    expect(file.entries).toEqual({ a: "1", b: "2" });
  });

  it.each([
    ["file:/path", (path: string) => `file:${path}`],
    ["file:///path", (path: string) => pathToFileURL(path).href],
  ])("%s writes that file", async (_, toUrl) => {
    const path = join(dir, "my keys", "auth.json");
    await createAuthStorage(toUrl(path)).set("k", "v");
    expect(JSON.parse(await readFile(path, "utf8")).entries).toEqual({ k: "v" });
    expect(await createAuthStorage(toUrl(path)).get("k")).toBe("v");
  });

  it("file:~/… is in the home folder", async () => {
    vi.stubEnv("HOME", dir);
    await createAuthStorage("file:~/elsewhere/auth.json").set("k", "v");
    expect(JSON.parse(await readFile(join(dir, "elsewhere", "auth.json"), "utf8")).entries).toEqual({
      k: "v",
    });
  });

  it("memory: is this process only", async () => {
    const a = createAuthStorage("memory:");
    await a.set("k", "v");
    expect(await a.get("k")).toBe("v");
    expect(await createAuthStorage("memory:").get("k")).toBeUndefined();
  });

  it.each(["s3://bucket/auth", "memory:extra", "redis://", "postgres://user:hunter2@db/x", "keys.json"])(
    "rejects %j with CONFIG_INVALID and never echoes a password",
    (url) => {
      expect(codeOf(() => createAuthStorage(url))).toBe("CONFIG_INVALID");
      try {
        createAuthStorage(url);
      } catch (error) {
        expect(String(error)).not.toContain("hunter2");
        expect(String(error)).toContain('use "file:"');
      }
    },
  );
});

/** A keychain of this process, shaped like @napi-rs/keyring. */
function fakeKeyring(): KeyringModule & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  class AsyncEntry {
    readonly #id: string;
    constructor(service: string, account: string) {
      this.#id = JSON.stringify([service, account]);
    }
    async getPassword(): Promise<string | null> {
      return entries.get(this.#id) ?? null;
    }
    async setPassword(password: string): Promise<void> {
      entries.set(this.#id, password);
    }
    async deletePassword(): Promise<boolean> {
      return entries.delete(this.#id);
    }
  }
  return { AsyncEntry, entries };
}

describe("the keychain storage", () => {
  const keyring = fakeKeyring();
  describe("over a keyring", () => {
    authStorageContractTests(it, () => createKeychainAuthStorage({ load: () => keyring }));
  });

  it("files entries under the service of keychain:<service>, one entry per key", async () => {
    const own = fakeKeyring();
    const storage = createAuthStorage("keychain:acme-agent", { keychain: { load: () => own } });
    await storage.set("github", "sk-1");
    expect([...own.entries]).toEqual([[JSON.stringify(["acme-agent", "github"]), "sk-1"]]);
  });

  it("says how to get @napi-rs/keyring when it does not load", () => {
    const load = (): KeyringModule => {
      throw new Error("Cannot find module '@napi-rs/keyring'");
    };
    expect(() => createAuthStorage("keychain:", { keychain: { load } })).toThrowError(
      /keychain: auth storage needs the optional dependency @napi-rs\/keyring.*npm install @napi-rs\/keyring/,
    );
  });

  it("with the real @napi-rs/keyring: works where the OS keychain is usable, else says why", async () => {
    const storage = createAuthStorage(`keychain:mcp-rt-test-${randomUUID()}`);
    const key = "probe";
    try {
      await storage.set(key, "value");
    } catch (error) {
      // No unlocked keychain here (a container without a Secret Service): the error says so.
      expect(String(error)).toMatch(
        /The OS keychain could not store "probe" \(service "mcp-rt-test-.*"\): .+; unlock/,
      );
      return;
    }
    expect(await storage.get(key)).toBe("value");
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
  });
});

// In CI a missing redis-server fails every one of these tests; locally it skips them.
describe.skipIf(missing !== undefined && process.env.CI !== "true")("the Redis storage", () => {
  let redis: RedisServer;
  beforeAll(async () => {
    if (!missing) redis = await startRedisServer();
  });
  beforeEach(() => {
    if (missing) throw new Error(missing);
  });
  afterAll(async () => {
    await redis?.stop();
  });

  describe("through createAuthStorage", () => {
    authStorageContractTests(it, () => createAuthStorage(redis.url));
  });

  it("keeps namespaces apart, and a fleet member sees another's sign-in", async () => {
    const a = createRedisAuthStorage(redis.url, { namespace: "fleet-a" });
    const b = createRedisAuthStorage(redis.url, { namespace: "fleet-b" });
    const a2 = createAuthStorage(redis.url, { redis: { namespace: "fleet-a" } });
    try {
      await a.set("oauth:x", "signed-in");
      expect(await a2.get("oauth:x")).toBe("signed-in");
      expect(await b.get("oauth:x")).toBeUndefined();
    } finally {
      await Promise.all([a.close?.(), b.close?.(), a2.close?.()]);
    }
  });

  it("fails the call, not the creation, while Redis is down", async () => {
    const own = await startRedisServer();
    await own.stop();
    const storage = createAuthStorage(own.url, { redis: { connectTimeoutMs: 300 } });
    try {
      await expect(storage.get("k")).rejects.toThrow();
    } finally {
      await storage.close?.();
    }
  });
});
