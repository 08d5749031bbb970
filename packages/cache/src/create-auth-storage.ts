import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type AuthStorage,
  createFileAuthStorage,
  createMemoryAuthStorage,
  McpRtError,
  redactUrl,
} from "@mcp-rt/config";
import { createKeychainAuthStorage, type KeychainAuthStorageOptions } from "./keychain-auth-storage.js";
import type { RedisAuthStorageOptions } from "./redis-auth-storage.js";

/** Options of {@link createAuthStorage}, per kind of store. */
export interface AuthStorageUrlOptions {
  /** Used for `redis://` and `rediss://` URLs. */
  redis?: RedisAuthStorageOptions;
  /** Used for `keychain:` (the service name can also be written `keychain:<service>`). */
  keychain?: KeychainAuthStorageOptions;
}

const USAGE =
  'use "file:" (~/.mcp-rt/auth.json), "file:/path/to/auth.json", "memory:", "redis://host:port" or "keychain:"';

function invalid(url: string, why: string, cause?: unknown): McpRtError {
  return new McpRtError("CONFIG_INVALID", `Auth storage URL "${redactUrl(url)}" ${why}; ${USAGE}.`, {
    cause,
  });
}

function authFilePath(url: string): string | undefined {
  const rest = url.slice("file:".length);
  if (rest === "") return undefined;
  if (rest.startsWith("//")) {
    try {
      return fileURLToPath(url);
    } catch (error) {
      throw invalid(url, "is not a usable file URL", error);
    }
  }
  if (rest === "~" || rest.startsWith("~/")) return join(homedir(), rest.slice(1));
  return rest;
}

/**
 * Where an agent keeps API keys and OAuth sign-ins, from a URL as its
 * `--auth` flag takes it:
 *
 * - `file:` (the default) — `~/.mcp-rt/auth.json`, or `file:/path/auth.json`;
 * - `memory:` — this process only;
 * - `redis://host:port` / `rediss://` — Redis or Valkey through the cache's
 *   Redis store, so a fleet of agents shares one sign-in (needs the optional
 *   peer `@keyv/redis`; call `close()` when done);
 * - `keychain:` / `keychain:<service>` — the OS keychain, through the
 *   optional dependency `@napi-rs/keyring`, when it loads.
 *
 * Never connects: a Redis that is down fails the calls, not this.
 *
 * @throws McpRtError `CONFIG_INVALID` for any other URL, or when the optional
 *   package a URL needs is not installed.
 * @example
 * ```ts
 * const authStorage = createAuthStorage(flags.auth); // "file:" when undefined
 * const connection = await connectToServer({ name: "linear", config, oauth: { storage: authStorage } });
 * ```
 */
export function createAuthStorage(url?: string, options: AuthStorageUrlOptions = {}): AuthStorage {
  if (url !== undefined && typeof url !== "string") {
    throw invalid(String(url), `is a ${typeof url}, not a string`);
  }
  const trimmed = (url ?? "file:").trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  switch (scheme) {
    case "file":
      return createFileAuthStorage(authFilePath(trimmed));
    case "memory":
      if (trimmed.slice("memory:".length).replace(/^\/\//, "") !== "") break;
      return createMemoryAuthStorage();
    case "keychain": {
      const service = trimmed.slice("keychain:".length).replace(/^\/\//, "");
      return createKeychainAuthStorage({
        ...options.keychain,
        ...(service === "" ? {} : { service }),
      });
    }
    case "redis":
    case "rediss":
      return lazyRedisAuthStorage(trimmed, options.redis);
  }
  throw invalid(trimmed, "is not supported");
}

/** The Redis storage, loaded on first use so that the root entry never imports `@keyv/redis`. */
function lazyRedisAuthStorage(url: string, options: RedisAuthStorageOptions | undefined): AuthStorage {
  let host = "";
  try {
    host = new URL(url).hostname;
  } catch {
    // Reported below.
  }
  if (host === "") throw invalid(url, "names no Redis host");
  try {
    createRequire(import.meta.url).resolve("@keyv/redis");
  } catch (error) {
    throw invalid(
      url,
      "needs the optional peer dependency @keyv/redis; install it (npm install @keyv/redis) or use file:",
      error,
    );
  }
  const loading = import("./redis-auth-storage.js").then(({ createRedisAuthStorage }) =>
    createRedisAuthStorage(url, options),
  );
  // Failures surface on the first call; none should surface as an unhandled rejection.
  loading.catch(() => undefined);
  return {
    get: async (key) => (await loading).get(key),
    set: async (key, value) => (await loading).set(key, value),
    delete: async (key) => (await loading).delete(key),
    close: async () => (await loading).close?.(),
  };
}
