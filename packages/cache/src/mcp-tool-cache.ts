import {
  type Logger,
  type MCPPromptDefinition,
  type MCPResourceDefinition,
  type MCPResourceTemplateDefinition,
  type MCPServerConfig,
  type MCPToolDefinition,
  McpRtError,
} from "@mcp-rt/config";
import { errorMessage, measureJson, type Settled, settleWithin } from "@mcp-rt/config/util";
import type { Keyv } from "keyv";
import {
  type CachedServerInfo,
  CachedServerInfoSchema,
  checkEntry,
  describeIssues,
  type MCPToolCacheEntry,
  MCPToolCacheEntrySchema,
} from "./cache-entry.js";
import { CacheKey, defaultCacheKeyPath, loadCacheKeyFile, processCacheKey } from "./cache-key.js";
import { CACHE_FORMAT_VERSION, toolCacheFingerprint, toolCacheKey } from "./fingerprint.js";
import { isUnreadable, type ToolCacheStore, toKeyv } from "./store-keyv.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Options of {@link MCPToolCache}. */
export interface MCPToolCacheOptions {
  /** How long an entry lives, in ms. @default 2592000000 (30 days) */
  ttlMs?: number;
  /** Prefix of every key, so that several caches can share one store. @default "mcp-rt" */
  namespace?: string;
  /** A read slower than this (ms) counts as a miss, so a slow store never delays startup. @default 100 */
  readTimeoutMs?: number;
  /** A write or delete slower than this (ms) is given up (it may still land). @default 5000 */
  writeTimeoutMs?: number;
  /** Where warnings go: a dead or slow store (once), a corrupt or refused entry, an unusable key file. @default silent */
  logger?: Logger;
  /**
   * The largest entry written or used, in bytes of JSON (about): a larger list
   * is not cached (a warning), and a larger entry read (planted, or written
   * with a higher limit) is deleted and read as a miss. @default 10485760 (10 MiB)
   */
  maxEntryBytes?: number;
  /**
   * The secret entries are keyed and signed with (HMAC-SHA-256), at least 16
   * bytes. Give every agent of a fleet that shares a store the same one (e.g.
   * `openssl rand -hex 32`, from your secret manager) and they share entries;
   * caches with different keys neither read nor accept each other's.
   * @default the installation's key from `keyFile`; for a `Map` store, a random key of this process
   */
  key?: string | Uint8Array;
  /**
   * Where the installation's key lives, created on first use (random, 0600,
   * in a 0700 folder). Ignored when `key` is given.
   * @default `~/.mcp-rt/cache-key` (beside the auth store); for a `Map` store, none
   */
  keyFile?: string;
}

/** Nesting deeper than any entry of tool definitions within the tool limits; deeper ones are refused. */
const MAX_ENTRY_DEPTH = 512;

/** Options of {@link MCPToolCache.set}. */
export interface MCPToolCacheSetOptions {
  /** The server's `serverInfo` from `initialize`, returned by {@link MCPToolCache.getEntry}. */
  serverInfo?: CachedServerInfo;
  /** The server's resources, kept beside its tools (same key) and returned by {@link MCPToolCache.getEntry}. */
  resources?: MCPResourceDefinition[];
  /** The server's resource templates, kept like `resources`. */
  resourceTemplates?: MCPResourceTemplateDefinition[];
  /** The server's prompts, kept like `resources`. */
  prompts?: MCPPromptDefinition[];
  /** The server's `instructions`, kept like `resources`. */
  instructions?: string;
}

const ignore = (): void => {};
const silent: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value > 0)) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `MCPToolCache: ${name} must be a positive number${name === "maxEntryBytes" ? " of bytes" : " of ms"}, got ${value}`,
    );
  }
  return value;
}

/**
 * Tool definitions that outlive the process, so an agent can offer a server's
 * tools before the server has started. Best effort by design: it never throws
 * from `get`/`set`/`delete`, a miss is `null`, and a dead, slow or corrupt
 * store only ever costs a cache miss. An entry that is corrupt, or larger than
 * `maxEntryBytes`, is deleted when it is read, so it costs one miss, not one
 * per start.
 *
 * Entries are keyed by an HMAC, under the cache's key (`key`, else the
 * installation's), of a fingerprint of the server name, its config and (for
 * stdio servers) the folder it runs in, so a changed config simply misses, no
 * secret is stored in clear, and whoever can write to a shared store but does
 * not hold the key can neither predict a key nor plant an entry: each entry
 * carries an HMAC of its content, and one without the right one is refused.
 *
 * @example
 * ```ts
 * const cache = new MCPToolCache(createFileStore(), { logger: console });
 * const tools = await cache.get("github", config, process.cwd()); // null on a miss
 * await cache.set("github", config, await listTools(connection), process.cwd());
 * ```
 */
export class MCPToolCache {
  readonly #keyv: Keyv;
  readonly #ownsKeyv: boolean;
  readonly #ttlMs: number;
  readonly #namespace: string;
  readonly #readTimeoutMs: number;
  readonly #writeTimeoutMs: number;
  readonly #maxEntryBytes: number;
  readonly #logger: Logger;
  readonly #keyFile: string | undefined;
  #key: Promise<CacheKey> | undefined;
  #storeDown = false;
  #slowWarned = false;
  #closed = false;

  /**
   * @param store - a `Keyv`, any keyv store adapter (`createFileStore()`,
   *   `createRedisStore()` from `@mcp-rt/cache/redis`, `@keyv/*`), or a `Map`.
   *   @default a new in-memory `Map`
   * @throws McpRtError `CONFIG_INVALID` for a non-positive TTL, timeout or `maxEntryBytes`, or a `key` under 16 bytes.
   */
  constructor(store: ToolCacheStore = new Map<string, unknown>(), options: MCPToolCacheOptions = {}) {
    this.#ttlMs = positive("ttlMs", options.ttlMs, 30 * DAY_MS);
    this.#readTimeoutMs = positive("readTimeoutMs", options.readTimeoutMs, 100);
    this.#writeTimeoutMs = positive("writeTimeoutMs", options.writeTimeoutMs, 5000);
    this.#maxEntryBytes = positive("maxEntryBytes", options.maxEntryBytes, 10 * 1024 * 1024);
    this.#namespace = options.namespace ?? "mcp-rt";
    this.#logger = options.logger ?? silent;
    if (options.key !== undefined) this.#key = Promise.resolve(new CacheKey(options.key));
    // A Map lives no longer than this process: a key of the process is enough, and no file is made.
    this.#keyFile = options.keyFile ?? (store instanceof Map ? undefined : defaultCacheKeyPath());
    const { keyv, owned } = toKeyv(store);
    this.#keyv = keyv;
    this.#ownsKeyv = owned;
    // Connection errors (a Redis that went away) arrive as events before any call fails.
    if (owned) keyv.on("error", (error: unknown) => this.#storeFailed(error));
  }

  /** The cached tools of a server, or `null` on a miss, an expired or unreadable entry, or a store problem. */
  async get(serverName: string, config: MCPServerConfig, cwd?: string): Promise<MCPToolDefinition[] | null> {
    return (await this.getEntry(serverName, config, cwd))?.tools ?? null;
  }

  /** Like {@link MCPToolCache.get}, with what was kept next to the tools (`serverInfo`, resources, prompts, instructions) and the write time. */
  async getEntry(
    serverName: string,
    config: MCPServerConfig,
    cwd?: string,
  ): Promise<MCPToolCacheEntry | null> {
    if (this.#closed) return null;
    try {
      const cacheKey = await this.#cacheKey();
      const fingerprint = cacheKey.entryId(toolCacheFingerprint(serverName, config, cwd));
      const key = toolCacheKey(this.#namespace, fingerprint);
      const read = await settleWithin(() => this.#keyv.get<unknown>(key), this.#readTimeoutMs);
      if (read.status === "timeout") {
        this.#readTooSlow(serverName);
        return null;
      }
      if (read.status === "error") {
        // A caller-supplied Keyv throws its deserializer's error for unparsable text.
        if (read.error instanceof SyntaxError)
          await this.#discard(serverName, key, "are unreadable (the stored text is not JSON)");
        else this.#storeFailed(read.error);
        return null;
      }
      // A caller-supplied Keyv may swallow read errors into `undefined`: only a hit proves it works.
      if (this.#ownsKeyv || read.value !== undefined) this.#storeWorks();
      if (read.value === undefined || read.value === null) return null;
      if (isUnreadable(read.value)) {
        await this.#discard(serverName, key, "are unreadable (the stored text is not a JSON cache entry)");
        return null;
      }
      const tooBig = this.#tooBig(read.value);
      if (tooBig) {
        await this.#discard(serverName, key, `cannot be used (${tooBig})`);
        return null;
      }
      const check = checkEntry(read.value, {
        fingerprint,
        version: CACHE_FORMAT_VERSION,
        key: cacheKey,
        ttlMs: this.#ttlMs,
        now: Date.now(),
      });
      if (check.ok) return check.entry;
      const { rejection } = check;
      if (rejection.kind === "corrupt")
        await this.#discard(serverName, key, `are unreadable (${rejection.reason})`);
      else if (rejection.kind === "refused")
        await this.#discard(
          serverName,
          key,
          "were not written with this cache's key (planted in the store, or written with another key)",
        );
      else if (rejection.kind === "expired") this.#logger.debug(`tool cache: "${serverName}" entry expired`);
      else this.#logger.debug(`tool cache: "${serverName}" entry has format version ${rejection.version}`);
      return null;
    } catch (error) {
      this.#logger.warn(
        `Tool cache: could not read "${serverName}" (${errorMessage(error)}); treating it as a miss.`,
        {
          error,
        },
      );
      return null;
    }
  }

  /**
   * Stores a server's tools. A logged no-op when the store fails, is slower
   * than `writeTimeoutMs`, or the tools are not valid tool definitions.
   */
  async set(
    serverName: string,
    config: MCPServerConfig,
    tools: MCPToolDefinition[],
    cwd?: string,
    options: MCPToolCacheSetOptions = {},
  ): Promise<void> {
    if (this.#closed) return;
    try {
      const cacheKey = await this.#cacheKey();
      const fingerprint = cacheKey.entryId(toolCacheFingerprint(serverName, config, cwd));
      const info =
        options.serverInfo === undefined ? undefined : CachedServerInfoSchema.safeParse(options.serverInfo);
      if (info?.success === false) {
        this.#logger.debug(
          `tool cache: not keeping the serverInfo of "${serverName}": ${describeIssues(info.error)}`,
        );
      }
      const parsed = MCPToolCacheEntrySchema.safeParse({
        version: CACHE_FORMAT_VERSION,
        fingerprint,
        tools,
        ...(info?.success ? { serverInfo: info.data } : {}),
        ...(options.resources ? { resources: options.resources } : {}),
        ...(options.resourceTemplates ? { resourceTemplates: options.resourceTemplates } : {}),
        ...(options.prompts ? { prompts: options.prompts } : {}),
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
        savedAt: Date.now(),
        mac: "",
      });
      if (!parsed.success) {
        this.#logger.warn(
          `Tool cache: not caching the tools of "${serverName}": ${describeIssues(parsed.error)}.`,
        );
        return;
      }
      const key = toolCacheKey(this.#namespace, fingerprint);
      // Measured before signing: signing serialises the entry, which a too-deep one cannot survive.
      const tooBig = this.#tooBig(parsed.data);
      if (tooBig) {
        this.#logger.warn(`Tool cache: not caching the tools of "${serverName}": ${tooBig}.`);
        // What is stored under the key is an older list: it must not stand in for this one.
        await this.#deleteKey(key);
        return;
      }
      // Signed as stored: after the schema dropped what it does not keep.
      const { mac: _unsigned, ...fields } = parsed.data;
      const entry: MCPToolCacheEntry = { ...fields, mac: cacheKey.sign(fields) };
      const write = await settleWithin(() => this.#keyv.set(key, entry, this.#ttlMs), this.#writeTimeoutMs);
      this.#afterWrite(write, "write");
    } catch (error) {
      this.#logger.warn(`Tool cache: could not write "${serverName}" (${errorMessage(error)}).`, { error });
    }
  }

  /** Removes a server's entry. A logged no-op when the store fails. */
  async delete(serverName: string, config: MCPServerConfig, cwd?: string): Promise<void> {
    if (this.#closed) return;
    try {
      const id = (await this.#cacheKey()).entryId(toolCacheFingerprint(serverName, config, cwd));
      await this.#deleteKey(toolCacheKey(this.#namespace, id));
    } catch (error) {
      this.#logger.warn(`Tool cache: could not delete "${serverName}" (${errorMessage(error)}).`, { error });
    }
  }

  /**
   * Disconnects the store (a Redis connection keeps the process alive until
   * then). Later calls are misses and no-ops. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closed = await settleWithin(() => this.#keyv.disconnect(), this.#writeTimeoutMs);
    if (closed.status === "error")
      this.#logger.debug(`tool cache: disconnect failed: ${errorMessage(closed.error)}`);
  }

  /** Same as {@link MCPToolCache.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Why a value is too large (or too deep) to keep, or undefined. */
  #tooBig(value: unknown): string | undefined {
    const measure = measureJson(value, { maxSize: this.#maxEntryBytes, maxDepth: MAX_ENTRY_DEPTH });
    if (measure.exceeded === "size")
      return `the entry is larger than ${this.#maxEntryBytes} bytes (limit maxEntryBytes)`;
    if (measure.exceeded === "depth") return `the entry nests deeper than ${MAX_ENTRY_DEPTH} levels`;
    return undefined;
  }

  async #deleteKey(key: string): Promise<void> {
    this.#afterWrite(await settleWithin(() => this.#keyv.delete(key), this.#writeTimeoutMs), "delete");
  }

  #afterWrite(result: Settled<boolean>, what: "write" | "delete"): void {
    if (result.status === "ok") {
      // A caller-supplied Keyv that swallows errors reports them as `false`.
      if (result.value === false && what === "write")
        this.#storeFailed(new Error("the store refused the write"));
      else this.#storeWorks();
    } else if (result.status === "error") {
      this.#storeFailed(result.error);
    } else {
      this.#logger.debug(
        `tool cache: ${what} took longer than ${this.#writeTimeoutMs} ms; not waiting for it`,
      );
    }
  }

  // Removes the entry so the next read is a plain miss; waits no longer than a read may take.
  async #discard(serverName: string, key: string, problem: string): Promise<void> {
    this.#logger.warn(
      `Tool cache: the cached tools of "${serverName}" ${problem}; ignoring and removing them.`,
    );
    await settleWithin(() => this.#keyv.delete(key), this.#readTimeoutMs);
  }

  #cacheKey(): Promise<CacheKey> {
    this.#key ??= this.#loadKey();
    return this.#key;
  }

  async #loadKey(): Promise<CacheKey> {
    if (this.#keyFile === undefined) return processCacheKey();
    try {
      return await loadCacheKeyFile(this.#keyFile);
    } catch (error) {
      this.#logger.warn(
        `Tool cache: cannot use its key file ${this.#keyFile} (${errorMessage(error)}); cached tools are kept for this process only. Fix or delete the file (a new key is made), or pass \`key\`.`,
        { error },
      );
      return processCacheKey();
    }
  }

  #readTooSlow(serverName: string): void {
    // A store already known to be down was warned about; slowness adds nothing.
    if (this.#slowWarned || this.#storeDown) {
      this.#logger.debug(`tool cache: read of "${serverName}" timed out`);
      return;
    }
    this.#slowWarned = true;
    this.#logger.warn(
      `Tool cache: the store did not answer within ${this.#readTimeoutMs} ms (reading "${serverName}"), so it counts as a miss. Raise readTimeoutMs if the store is slow but healthy.`,
    );
  }

  #storeFailed(error: unknown): void {
    if (this.#closed) return;
    if (this.#storeDown) {
      this.#logger.debug(`tool cache: store still failing: ${errorMessage(error)}`);
      return;
    }
    this.#storeDown = true;
    this.#logger.warn(
      `Tool cache: the store failed (${errorMessage(error)}); continuing without cached tools until it works again. Check the store (is Redis up? is the cache folder writable?) or turn the cache off.`,
      { error },
    );
  }

  #storeWorks(): void {
    if (!this.#storeDown) return;
    this.#storeDown = false;
    this.#logger.info("Tool cache: the store works again.");
  }
}
