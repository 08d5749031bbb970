import type {
  Logger,
  MCPPromptDefinition,
  MCPResourceDefinition,
  MCPResourceTemplateDefinition,
  MCPToolDefinition,
} from "@mcp-rt/config";
import { McpRtError } from "@mcp-rt/config";
import type {
  CachedServerInfo,
  MCPToolCacheEntry,
  MCPToolCacheEra,
  MCPToolCacheFacts,
  MCPToolCacheFailedStartup,
  MCPToolCacheListHint,
  MCPToolCacheMissedStartup,
} from "./cache-entry.js";

// The options and results of `MCPToolCache` (mcp-tool-cache.ts), and how its options are checked.

/** An hour, in ms. */
export const HOUR_MS: number = 60 * 60 * 1000;
/** A day, in ms. */
export const DAY_MS: number = 24 * HOUR_MS;

/** Options of `MCPToolCache`. */
export interface MCPToolCacheOptions {
  /** How long an entry lives, in ms. @default 2592000000 (30 days) */
  ttlMs?: number;
  /** Prefix of every key, so that several caches can share one store. @default "mcp-rt" */
  namespace?: string;
  /**
   * A read slower than this (ms) is not waited for, so a slow store never
   * delays startup: `get` and `getEntry` return a miss, and `read` hands over
   * the read still under way (`late`). @default 100
   */
  readTimeoutMs?: number;
  /**
   * How long a note that a server missed the startup wait
   * (`MCPToolCache.noteMissedStartup`), or that its start failed
   * (`noteFailedStartup`), is kept: after it, the server is waited for once
   * more. @default 3600000 (1 hour)
   */
  missedStartupTtlMs?: number;
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

/** What `MCPToolCache.set` keeps for a server. */
export interface MCPToolCacheSetOptions {
  /** The server's tools, as `tools/list` returned them. */
  tools: MCPToolDefinition[];
  /** The server's `serverInfo` from `initialize`, returned by `MCPToolCache.getEntry`. */
  serverInfo?: CachedServerInfo;
  /** The server's resources, kept beside its tools (same key) and returned by `MCPToolCache.getEntry`. */
  resources?: MCPResourceDefinition[];
  /** The server's resource templates, kept like `resources`. */
  resourceTemplates?: MCPResourceTemplateDefinition[];
  /** The server's prompts, kept like `resources`. */
  prompts?: MCPPromptDefinition[];
  /** The server's `instructions`, kept like `resources`. */
  instructions?: string;
  /**
   * The era the server speaks (the connection's `eraVerdict`): kept in the
   * server's plain entry for every caller, its `discover` result there only
   * when that says `cacheScope: "public"` (else with the lists).
   */
  era?: MCPToolCacheEra;
  /** The caching hints of the tools (the connection's `toolsCacheHint`), kept like `resources`. */
  toolsHint?: MCPToolCacheListHint;
  /**
   * The strictest `cacheScope` of the lists beside the tools (resources,
   * templates, prompts: the connection's `cacheScope`). With the tools' own
   * and the discover result's, it decides where the lists are kept: when
   * any is `"private"`, all of them are kept under `authContext` only.
   * @default "public" (a legacy server's lists carry no scope)
   */
  cacheScope?: "public" | "private";
  /**
   * Who the lists were made for (the connection's `authContext`, a digest):
   * private lists are kept under it, and only a `read` with the same context
   * finds them. Private lists without one are not kept (only the server's
   * facts are).
   */
  authContext?: string;
  /**
   * How long the server took to come up this time, in ms (from its launch
   * until its tools were listed), kept like `resources`; a value that is not
   * a finite number ≥ 0 is dropped, the tools kept.
   */
  startMs?: number;
}

/** Options of `MCPToolCache.read`. */
export interface MCPToolCacheReadOptions {
  /**
   * Who reads (the connection's `authContext`): when the server's lists are
   * private, the ones kept under this context are read. A promise (of a
   * context that waits for a `!command` or a stored sign-in) is awaited
   * within the read's `readTimeoutMs`; one that rejects reads no private
   * lists. Without it, only public lists are found.
   */
  authContext?: string | PromiseLike<string>;
}

/** Options of `MCPToolCache.delete`. */
export interface MCPToolCacheDeleteOptions {
  /** The auth context whose private lists to delete; without it, the server's plain entry. */
  authContext?: string;
}

/** What `MCPToolCache.read` found for a server. */
export interface MCPToolCacheRead {
  /** The server's cached tools and what was kept beside them, for this reader; `null` on a miss, a note or a problem. */
  entry: MCPToolCacheEntry | null;
  /** What the server's plain entry says for every caller (its era, its start time), also when its lists were not found. */
  facts?: MCPToolCacheFacts;
  /** A note that the server missed the startup wait (and when it was written, ms since the epoch). */
  missedStartup?: MCPToolCacheMissedStartup & { at: number };
  /** A note that the server's last start failed by itself (and when it was written, ms since the epoch). */
  failedStartup?: MCPToolCacheFailedStartup & { at: number };
  /**
   * Set when the store did not answer within `readTimeoutMs`: the read goes on,
   * and this settles (never rejects) with what it found once the store answers.
   */
  late?: Promise<MCPToolCacheRead>;
}

/** Options of `MCPToolCache.noteFailedStartup`. */
export interface MCPToolCacheFailureOptions {
  /** What the start failed with. */
  failure: { code: string; message: string };
  /** The server's facts as read (`MCPToolCacheRead.facts`), kept beside the note. */
  facts?: MCPToolCacheFacts | undefined;
}

/** Options of `MCPToolCache.noteMissedStartup`. */
export interface MCPToolCacheNoteOptions {
  /** The startup wait the server missed, in ms. */
  waitMs: number;
  /** The server's facts as read (`MCPToolCacheRead.facts`), kept beside the note. */
  facts?: MCPToolCacheFacts | undefined;
}

/** A number option of {@link MCPToolCacheOptions}, checked: positive, else its fallback when unset. */
export function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value > 0)) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `MCPToolCache: ${name} must be a positive number${name === "maxEntryBytes" ? " of bytes" : " of ms"}, got ${value}`,
    );
  }
  return value;
}
