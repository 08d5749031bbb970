import { type Logger, type MCPToolDefinition, mcpRtPath } from "@mcp-rt/config";
import {
  errorMessage,
  measureJson,
  type Settled,
  type SettleTimeout,
  settleWithin,
} from "@mcp-rt/config/util";
import type { Keyv } from "keyv";
import {
  CachedServerInfoSchema,
  checkEntry,
  describeIssues,
  type MCPToolCacheEntry,
  type MCPToolCacheEra,
  MCPToolCacheEraSchema,
  type MCPToolCacheFacts,
  MCPToolCacheListHintSchema,
  type StoredEntry,
  StoredEntrySchema,
} from "./cache-entry.js";
import { CacheKey, loadCacheKeyFile, processCacheKey } from "./cache-key.js";
import {
  CACHE_FORMAT_VERSION,
  privateFingerprint,
  type ToolCacheServer,
  toolCacheFingerprint,
  toolCacheKey,
} from "./fingerprint.js";
import {
  DAY_MS,
  HOUR_MS,
  type MCPToolCacheDeleteOptions,
  type MCPToolCacheFailureOptions,
  type MCPToolCacheNoteOptions,
  type MCPToolCacheOptions,
  type MCPToolCacheRead,
  type MCPToolCacheReadOptions,
  type MCPToolCacheSetOptions,
  positive,
} from "./mcp-tool-cache-options.js";
import { isUnreadable, type ToolCacheStore, toKeyv } from "./store-keyv.js";

/** Nesting deeper than any entry of tool definitions within the tool limits; deeper ones are refused. */
const MAX_ENTRY_DEPTH = 512;

const MISS: MCPToolCacheRead = { entry: null };

/** What a read's value is checked against. */
interface Expected {
  serverName: string;
  key: string;
  fingerprint: string;
  cacheKey: CacheKey;
}

const ignore = (): void => {};
const silent: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };

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
 * const tools = await cache.get({ serverName: "github", config, cwd: process.cwd() }); // null on a miss
 * await cache.set({ serverName: "github", config, cwd: process.cwd() }, { tools: await listTools(connection) });
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
  readonly #missedStartupTtlMs: number;
  readonly #logger: Logger;
  readonly #keyFile: string | undefined;
  #key: Promise<CacheKey> | undefined;
  /** The last write or delete of each key still under way: writes of one key land in the order they were made. */
  readonly #writes = new Map<string, Promise<unknown>>();
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
    this.#missedStartupTtlMs = positive("missedStartupTtlMs", options.missedStartupTtlMs, HOUR_MS);
    this.#namespace = options.namespace ?? "mcp-rt";
    this.#logger = options.logger ?? silent;
    if (options.key !== undefined) this.#key = Promise.resolve(new CacheKey(options.key));
    // A Map lives no longer than this process: a key of the process is enough, and no file is made.
    this.#keyFile = options.keyFile ?? (store instanceof Map ? undefined : mcpRtPath("cache-key"));
    const { keyv, owned } = toKeyv(store);
    this.#keyv = keyv;
    this.#ownsKeyv = owned;
    // Connection errors (a Redis that went away) arrive as events before any call fails.
    if (owned) keyv.on("error", (error: unknown) => this.#storeFailed(error));
  }

  /** The cached tools of a server (for `options.authContext`, when they are private), or `null` on a miss, an expired or unreadable entry, or a store problem. */
  async get(
    server: ToolCacheServer,
    options: MCPToolCacheReadOptions = {},
  ): Promise<MCPToolDefinition[] | null> {
    return (await this.getEntry(server, options))?.tools ?? null;
  }

  /** Like {@link MCPToolCache.get}, with what was kept next to the tools (`serverInfo`, resources, prompts, instructions) and the write time. */
  async getEntry(
    server: ToolCacheServer,
    options: MCPToolCacheReadOptions = {},
  ): Promise<MCPToolCacheEntry | null> {
    return (await this.read(server, options)).entry;
  }

  /**
   * What the store holds for a server: its entry (from its plain entry when
   * its lists are public, else the private one kept under
   * `options.authContext`), its facts (era, start time; also without an
   * entry), a note that it missed the startup wait
   * ({@link MCPToolCache.noteMissedStartup}), or nothing. Never throws. A
   * read slower than `readTimeoutMs` (the store, or the auth context it
   * waits for) is not waited for: the result is a miss with `late`, the read
   * still under way, which settles with what it finds.
   */
  async read(server: ToolCacheServer, options: MCPToolCacheReadOptions = {}): Promise<MCPToolCacheRead> {
    if (this.#closed) return MISS;
    const { serverName } = server;
    try {
      const cacheKey = await this.#cacheKey();
      const fingerprint = toolCacheFingerprint(server);
      const plain = this.#expected(cacheKey, serverName, fingerprint);
      // Which step a read that is given up was at: a store that is slow is warned about, an identity still being resolved is not.
      let waitingFor: "store" | "auth context" = "store";
      const operation = async (): Promise<MCPToolCacheRead> => {
        // The private entry is read beside the plain one as soon as the context is known: most
        // 2026-07-28 lists are private, and waiting for the plain entry first would add a store
        // round trip to their start; a public server's is a miss it does not wait for.
        const own =
          options.authContext === undefined
            ? undefined
            : Promise.resolve(options.authContext).then((authContext) => {
                const expected = this.#expected(
                  cacheKey,
                  serverName,
                  privateFingerprint(fingerprint, authContext),
                );
                return { expected, value: settled(this.#keyv.get<unknown>(expected.key)) };
              });
        own?.catch(() => {});
        const found = await this.#use(await settled(this.#keyv.get<unknown>(plain.key)), plain);
        if (found.entry === null || found.entry.tools !== undefined || own === undefined)
          return this.#result(serverName, found.entry, null);
        waitingFor = "auth context";
        let mineRead: { expected: Expected; value: Promise<Settled<unknown>> };
        try {
          mineRead = await own;
        } catch {
          // The context could not be made (a `!command` failed): nothing private can be read.
          return this.#result(serverName, found.entry, null);
        }
        waitingFor = "store";
        const mine = await this.#use(await mineRead.value, mineRead.expected);
        return this.#result(serverName, found.entry, mine.entry);
      };
      const read = await settleWithin(operation, this.#readTimeoutMs);
      if (read.status === "ok") return read.value;
      if (read.status === "error") throw read.error;
      if (waitingFor === "store") this.#readTooSlow(serverName, read);
      else
        this.#logger.debug(
          `tool cache: the read of "${serverName}" waits for its auth context (a !command or a stored sign-in); handed over when it answers`,
        );
      const started = Date.now();
      const late = read.operation
        .then((found) => {
          this.#logger.debug(
            `tool cache: the late read of "${serverName}" answered ${Date.now() - started} ms after it was given up (${found.entry ? "an entry" : found.missedStartup ? "a note" : "nothing"})`,
            { server: serverName, afterMs: Date.now() - started, found: found.entry !== null },
          );
          return found;
        })
        .catch(() => MISS);
      return { entry: null, late };
    } catch (error) {
      this.#logger.warn(
        `Tool cache: could not read "${serverName}" (${errorMessage(error)}); treating it as a miss.`,
        {
          error,
        },
      );
      return MISS;
    }
  }

  /** What a read returns from the server's plain entry and the private one it found (if any). */
  #result(serverName: string, plain: StoredEntry | null, mine: StoredEntry | null): MCPToolCacheRead {
    if (plain === null) return MISS;
    const lists = plain.tools !== undefined ? plain : mine?.tools !== undefined ? mine : null;
    const facts = factsOf(plain);
    const read: MCPToolCacheRead = {
      entry: lists as MCPToolCacheEntry | null,
      ...(facts ? { facts } : {}),
    };
    const { missedStartup: missed, failedStartup: failed } = plain;
    if (missed === undefined && failed === undefined) return read;
    if (Date.now() - plain.savedAt > this.#missedStartupTtlMs) {
      this.#logger.debug(`tool cache: the note on "${serverName}"'s last start expired`);
      return read;
    }
    const at = plain.savedAt;
    return {
      ...read,
      ...(missed ? { missedStartup: { waitMs: missed.waitMs, at } } : {}),
      ...(failed ? { failedStartup: { code: failed.code, message: failed.message, at } } : {}),
    };
  }

  /** What a value read under `fingerprint`'s id is checked against. */
  #expected(cacheKey: CacheKey, serverName: string, fingerprint: string): Expected {
    const id = cacheKey.entryId(fingerprint);
    return { serverName, key: toolCacheKey(this.#namespace, id), fingerprint: id, cacheKey };
  }

  /** What a store's answer means: a stored value, or nothing (a bad value is removed, with a warning). */
  async #use(read: Settled<unknown>, expected: Expected): Promise<{ entry: StoredEntry | null }> {
    const { serverName, key } = expected;
    const none = { entry: null };
    if (read.status === "timeout") return none;
    if (read.status === "error") {
      // A caller-supplied Keyv throws its deserializer's error for unparsable text.
      if (read.error instanceof SyntaxError)
        await this.#discard(serverName, key, "are unreadable (the stored text is not JSON)");
      else this.#storeFailed(read.error);
      return none;
    }
    // A caller-supplied Keyv may swallow read errors into `undefined`: only a hit proves it works.
    if (this.#ownsKeyv || read.value !== undefined) this.#storeWorks();
    if (read.value === undefined || read.value === null) return none;
    if (isUnreadable(read.value)) {
      await this.#discard(serverName, key, "are unreadable (the stored text is not a JSON cache entry)");
      return none;
    }
    const tooBig = this.#tooBig(read.value);
    if (tooBig) {
      await this.#discard(serverName, key, `cannot be used (${tooBig})`);
      return none;
    }
    const check = checkEntry(read.value, {
      fingerprint: expected.fingerprint,
      version: CACHE_FORMAT_VERSION,
      key: expected.cacheKey,
      ttlMs: this.#ttlMs,
      now: Date.now(),
    });
    if (check.ok) return { entry: check.entry };
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
    return none;
  }

  /**
   * Notes, in the server's plain entry, that it was still starting when the
   * startup wait of `waitMs` ran out: `read` returns the note
   * (`missedStartup`) until the server's tools are `set` (which replaces it),
   * the entry is deleted, or `missedStartupTtlMs` passed. The facts given
   * (`options.facts`, as read) are kept beside it. A logged no-op when the
   * store fails.
   */
  async noteMissedStartup(server: ToolCacheServer, options: MCPToolCacheNoteOptions): Promise<void> {
    if (this.#closed) return;
    const { serverName } = server;
    const facts = options.facts ? publicFacts(options.facts) : undefined;
    await this.#write(server, {
      what: "the note on",
      fields: { ...facts, missedStartup: { waitMs: options.waitMs } },
      // A bare note goes when it expires; facts stay as long as any entry.
      ttlMs:
        facts?.era !== undefined || facts?.startMs !== undefined ? this.#ttlMs : this.#missedStartupTtlMs,
    }).catch((error: unknown) =>
      this.#logger.warn(`Tool cache: could not write "${serverName}" (${errorMessage(error)}).`, { error }),
    );
  }

  /**
   * Notes, in the server's plain entry, that its last start failed by itself
   * (an exit, a refusal, a timeout; not a sign-in or a config the user must
   * fix): `read` returns the note (`failedStartup`) until the server's tools
   * are `set` (which replaces it), another note replaces it, or
   * `missedStartupTtlMs` passed. The message is cut to its first line (300
   * characters at most). The facts given are kept beside it. A logged no-op
   * when the store fails.
   */
  async noteFailedStartup(server: ToolCacheServer, options: MCPToolCacheFailureOptions): Promise<void> {
    if (this.#closed) return;
    const facts = options.facts ? publicFacts(options.facts) : undefined;
    const message = (options.failure.message.split("\n")[0] ?? "").slice(0, 300);
    await this.#write(server, {
      what: "the note on",
      fields: { ...facts, failedStartup: { code: options.failure.code, message } },
      ttlMs:
        facts?.era !== undefined || facts?.startMs !== undefined ? this.#ttlMs : this.#missedStartupTtlMs,
    }).catch((error: unknown) =>
      this.#logger.warn(`Tool cache: could not write "${server.serverName}" (${errorMessage(error)}).`, {
        error,
      }),
    );
  }

  /**
   * Stores a server's tools and what is kept beside them. A logged no-op when
   * the store fails, is slower than `writeTimeoutMs`, or the tools are not
   * valid tool definitions. Where they go depends on their scope (SEP-2549):
   * public lists (a legacy server's, which carry no scope, among them) in
   * the server's plain entry, read by every caller; when the tools, the
   * lists beside them (`cacheScope`) or the discover result are private, all
   * of them in an entry under `authContext`, which only a `read` with the
   * same context finds (also in a store several users share), and the plain
   * entry keeps the server's facts alone (era, start time). Without an
   * `authContext`, private lists are not kept at all.
   */
  async set(server: ToolCacheServer, options: MCPToolCacheSetOptions): Promise<void> {
    if (this.#closed) return;
    const { serverName } = server;
    const { tools } = options;
    try {
      const hint =
        options.toolsHint === undefined ? undefined : MCPToolCacheListHintSchema.safeParse(options.toolsHint);
      const toolsHint = hint?.success ? hint.data : undefined;
      const info =
        options.serverInfo === undefined ? undefined : CachedServerInfoSchema.safeParse(options.serverInfo);
      if (info?.success === false) {
        this.#logger.debug(
          `tool cache: not keeping the serverInfo of "${serverName}": ${describeIssues(info.error)}`,
        );
      }
      const parsedEra = options.era === undefined ? undefined : MCPToolCacheEraSchema.safeParse(options.era);
      if (parsedEra?.success === false) {
        this.#logger.debug(
          `tool cache: not keeping the era of "${serverName}": ${describeIssues(parsedEra.error)}`,
        );
      }
      const era = parsedEra?.success ? parsedEra.data : undefined;
      const startMs = this.#startMs(serverName, options.startMs);
      const facts: MCPToolCacheFacts = {
        ...(era ? { era } : {}),
        ...(startMs === undefined ? {} : { startMs }),
      };
      const lists = {
        tools,
        ...(info?.success ? { serverInfo: info.data } : {}),
        ...(options.resources ? { resources: options.resources } : {}),
        ...(options.resourceTemplates ? { resourceTemplates: options.resourceTemplates } : {}),
        ...(options.prompts ? { prompts: options.prompts } : {}),
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
        ...(toolsHint ? { toolsHint } : {}),
      };
      const scopes = [options.cacheScope, toolsHint?.cacheScope, era && discoverScope(era)];
      if (!scopes.includes("private")) {
        await this.#write(server, { what: "the tools of", fields: { ...lists, ...facts } });
        return;
      }
      const { authContext } = options;
      if (authContext === undefined) {
        this.#logger.debug(
          `tool cache: not keeping the private lists of "${serverName}": no auth context was given`,
        );
      } else {
        await this.#write(server, { what: "the tools of", fields: { ...lists, ...facts }, authContext });
      }
      await this.#write(server, { what: "the facts of", fields: publicFacts(facts) });
    } catch (error) {
      this.#logger.warn(`Tool cache: could not write "${serverName}" (${errorMessage(error)}).`, { error });
    }
  }

  /**
   * Checks, signs and stores `fields` as the server's plain entry, or (with
   * `authContext`) as its private one. A value the schema refuses is not
   * written (a warning); one too large deletes what was there, which must
   * not stand in for it.
   */
  async #write(
    server: ToolCacheServer,
    write: { what: string; fields: Partial<StoredEntry>; authContext?: string; ttlMs?: number },
  ): Promise<void> {
    const { serverName } = server;
    const cacheKey = await this.#cacheKey();
    const id = this.#entryId(cacheKey, server, write.authContext);
    const parsed = StoredEntrySchema.safeParse({
      version: CACHE_FORMAT_VERSION,
      fingerprint: id,
      ...write.fields,
      savedAt: Date.now(),
      mac: "",
    });
    if (!parsed.success) {
      this.#logger.warn(
        `Tool cache: not caching ${write.what} "${serverName}": ${describeIssues(parsed.error)}.`,
      );
      return;
    }
    const key = toolCacheKey(this.#namespace, id);
    // Measured before signing: signing serialises the entry, which a too-deep one cannot survive.
    const tooBig = this.#tooBig(parsed.data);
    if (tooBig) {
      this.#logger.warn(`Tool cache: not caching ${write.what} "${serverName}": ${tooBig}.`);
      // What is stored under the key is an older list: it must not stand in for this one.
      await this.#deleteKey(key);
      return;
    }
    // Signed as stored: after the schema dropped what it does not keep.
    const { mac: _unsigned, ...fields } = parsed.data;
    const entry: StoredEntry = { ...fields, mac: cacheKey.sign(fields) };
    const ttlMs = write.ttlMs ?? this.#ttlMs;
    this.#afterWrite(
      await this.#inOrder(key, () =>
        settleWithin(() => this.#keyv.set(key, entry, ttlMs), this.#writeTimeoutMs),
      ),
      "write",
    );
  }

  /** Removes a server's plain entry (with `authContext`, its private lists under that context). A logged no-op when the store fails. */
  async delete(server: ToolCacheServer, options: MCPToolCacheDeleteOptions = {}): Promise<void> {
    if (this.#closed) return;
    const { serverName } = server;
    try {
      const id = this.#entryId(await this.#cacheKey(), server, options.authContext);
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

  /** `set`'s `startMs`, when it is a time: a wrong one costs the timing, not the tools. */
  #startMs(serverName: string, value: unknown): number | undefined {
    if (value === undefined) return undefined;
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
    this.#logger.debug(
      `tool cache: not keeping the start time of "${serverName}": expected a number of ms ≥ 0, got ${String(value)}`,
    );
    return undefined;
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
    this.#afterWrite(
      await this.#inOrder(key, () => settleWithin(() => this.#keyv.delete(key), this.#writeTimeoutMs)),
      "delete",
    );
  }

  /** Runs `write` once the writes of `key` made before it settled, so that the last one made is the one kept. */
  #inOrder<T>(key: string, write: () => Promise<T>): Promise<T> {
    const before = this.#writes.get(key);
    const running = before ? before.then(write) : write();
    const done = running.catch(() => undefined);
    this.#writes.set(key, done);
    void done.then(() => {
      if (this.#writes.get(key) === done) this.#writes.delete(key);
    });
    return running;
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

  /** The id of a server's entry: of its plain one, or of its private list's under `authContext`. */
  #entryId(cacheKey: CacheKey, server: ToolCacheServer, authContext?: string): string {
    const fingerprint = toolCacheFingerprint(server);
    return cacheKey.entryId(
      authContext === undefined ? fingerprint : privateFingerprint(fingerprint, authContext),
    );
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

  #readTooSlow(serverName: string, read: SettleTimeout<MCPToolCacheRead>): void {
    const { elapsedMs, lateMs, stretchMs } = read;
    const timing = { server: serverName, elapsedMs, lateMs, stretchMs };
    this.#logger.debug(
      `tool cache: read of "${serverName}" not answered after ${Math.round(elapsedMs)} ms (timers late by ${Math.round(lateMs)} ms, limit stretched by ${Math.round(stretchMs)} ms)`,
      timing,
    );
    // A store already known to be down was warned about; slowness adds nothing.
    if (this.#slowWarned || this.#storeDown) return;
    this.#slowWarned = true;
    this.#logger.warn(
      `Tool cache: the store did not answer within ${this.#readTimeoutMs} ms (reading "${serverName}"); startup goes on without waiting for it, and uses the entry if it arrives before the server is up. Raise readTimeoutMs if the store is slow but healthy.`,
      timing,
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

/** A store's answer as a settled result. */
function settled<T>(operation: Promise<T>): Promise<Settled<T>> {
  return operation.then(
    (value): Settled<T> => ({ status: "ok", value }),
    (error: unknown): Settled<T> => ({ status: "error", error }),
  );
}

/** The `cacheScope` of an era's `server/discover` result: absent (or legacy) is none, anything but `"public"` private. */
function discoverScope(era: MCPToolCacheEra): "public" | "private" | undefined {
  if (era.discover === undefined) return undefined;
  return era.discover.cacheScope === "public" ? "public" : "private";
}

/** The facts a plain entry keeps: the era without a discover result that is not public. */
function publicFacts(facts: MCPToolCacheFacts): MCPToolCacheFacts {
  const { era, startMs } = facts;
  const shared = era && discoverScope(era) === "private" ? { ...era, discover: undefined } : era;
  return {
    ...(shared ? { era: withoutUndefined(shared) } : {}),
    ...(startMs === undefined ? {} : { startMs }),
  };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

/** The facts of a stored plain entry, or undefined when it has none. */
function factsOf(entry: StoredEntry): MCPToolCacheFacts | undefined {
  if (entry.era === undefined && entry.startMs === undefined) return undefined;
  return {
    ...(entry.era ? { era: entry.era } : {}),
    ...(entry.startMs === undefined ? {} : { startMs: entry.startMs }),
  };
}
