import {
  type MCPPromptDefinition,
  MCPPromptDefinitionSchema,
  type MCPResourceDefinition,
  MCPResourceDefinitionSchema,
  type MCPResourceTemplateDefinition,
  MCPResourceTemplateDefinitionSchema,
  type MCPToolDefinition,
  MCPToolDefinitionSchema,
} from "@mcp-rt/config";
import { z } from "@mcp-rt/config/util";
import type { CacheKey } from "./cache-key.js";
import { entryShapeProblem } from "./entry-shape.js";

/** What a server said about itself in `initialize`, kept next to its tools. */
export interface CachedServerInfo {
  /** The server's own name (not the config name). */
  name: string;
  /** The server's version. */
  version: string;
  /** A display name, when the server gives one. */
  title?: string | undefined;
  /** Anything else the server sent (kept as is). */
  [key: string]: unknown;
}

/** A note, kept where a server's tools would be, that it did not come up within the startup wait. */
export interface MCPToolCacheMissedStartup {
  /** The bound it missed: the manager's `maxStartupWaitMs` then, in ms. */
  waitMs: number;
}

/** A note, kept where a server's tools would be, that its last start failed by itself (an exit, a refusal, a timeout). */
export interface MCPToolCacheFailedStartup {
  /** The failure's code (`INIT_FAILED`, `CONNECT_TIMEOUT`…). */
  code: string;
  /** The failure's first line, as the manager said it (no secrets), at most 300 characters. */
  message: string;
}

/**
 * The MCP era a server was found to speak (`@mcp-rt/client`'s
 * `MCPEraVerdict`), kept so that the next start connects without a probe.
 */
export interface MCPToolCacheEra {
  /** `modern` (2026-07-28 and later) or `legacy` (`initialize`). */
  era: "modern" | "legacy";
  /** The revision agreed: `2026-07-28`, `2025-11-25`… */
  protocolVersion: string;
  /** The server's `server/discover` result (modern only), as it sent it. */
  discover?: Record<string, unknown> | undefined;
  /** When the era was found out, in ms since the epoch (a legacy verdict goes stale). */
  decidedAt: number;
}

/**
 * The caching hints (SEP-2549) of the `tools/list` an entry holds
 * (`@mcp-rt/client`'s `MCPListCacheHint`): while fresh, a start may use the
 * cached list as the live one instead of listing again.
 */
export interface MCPToolCacheListHint {
  /** How long after `receivedAt` the list is fresh, in ms; 0 for never. */
  ttlMs: number;
  /** `private`: the entry is kept per auth context and never read under another. */
  cacheScope: "public" | "private";
  /** When the list's first page arrived, in ms since the epoch. */
  receivedAt: number;
}

/**
 * What a server's plain entry says of it for every caller, also when its
 * lists are private (kept per auth context): the era it speaks (with the
 * `server/discover` result only when that is public) and how long it took
 * to come up.
 */
export interface MCPToolCacheFacts {
  /** The era the server speaks; its `discover` only when the server marked it `cacheScope: "public"`. */
  era?: MCPToolCacheEra | undefined;
  /** How long the server took to come up at the start that wrote it, in ms. */
  startMs?: number | undefined;
}

/** One server's cached tools and what is kept beside them, as a read returns them. */
export interface MCPToolCacheEntry {
  /** The cache format version that wrote it. */
  version: number;
  /**
   * The entry's id: an HMAC, under the cache key, of the fingerprint of the
   * server config it belongs to (`toolCacheFingerprint`); also the last part of its store key.
   */
  fingerprint: string;
  /** The tool definitions, as `tools/list` returned them. */
  tools: MCPToolDefinition[];
  /** The server's `serverInfo`, when the writer passed it. */
  serverInfo?: CachedServerInfo | undefined;
  /** The server's resources (`resources/list`), when the writer passed them. */
  resources?: MCPResourceDefinition[] | undefined;
  /** The server's resource templates, when the writer passed them. */
  resourceTemplates?: MCPResourceTemplateDefinition[] | undefined;
  /** The server's prompts (`prompts/list`), when the writer passed them. */
  prompts?: MCPPromptDefinition[] | undefined;
  /** The server's `instructions` from `initialize`, when the writer passed them. */
  instructions?: string | undefined;
  /**
   * Set on a note instead of an entry (no tools): the server was still
   * starting when the startup wait ran out. Readers of this format version
   * that predate it read a note as a server without tools.
   */
  missedStartup?: MCPToolCacheMissedStartup | undefined;
  /** Set on a note that the server's last start failed by itself (see `MCPToolCache.noteFailedStartup`). */
  failedStartup?: MCPToolCacheFailedStartup | undefined;
  /** The era the server spoke when its tools were listed, when the writer passed it. */
  era?: MCPToolCacheEra | undefined;
  /** The caching hints the server sent with the tools, when the writer passed them. */
  toolsHint?: MCPToolCacheListHint | undefined;
  /**
   * How long the server took to come up at the start that wrote the entry,
   * in ms (from its launch until its tools were listed), when the writer
   * passed it: the next start launches servers that came up fast first.
   * Entries written before it have none.
   */
  startMs?: number | undefined;
  /** When it was written, in ms since the epoch. */
  savedAt: number;
  /** HMAC-SHA-256 (hex), under the cache key, of every other field: an entry without the right one is refused. */
  mac: string;
}

/** zod schema of {@link CachedServerInfo}. */
export const CachedServerInfoSchema: z.ZodMiniType<CachedServerInfo> = z.looseObject({
  name: z.string(),
  version: z.string(),
  title: z.optional(z.string()),
});

/** zod schema of {@link MCPToolCacheEra}. */
export const MCPToolCacheEraSchema: z.ZodMiniType<MCPToolCacheEra> = z.object({
  era: z.enum(["modern", "legacy"]),
  protocolVersion: z.string().check(z.minLength(1)),
  discover: z.optional(z.record(z.string(), z.unknown())),
  decidedAt: z.number(),
});

/** zod schema of {@link MCPToolCacheListHint}. */
export const MCPToolCacheListHintSchema: z.ZodMiniType<MCPToolCacheListHint> = z.object({
  ttlMs: z.number().check(z.nonnegative()),
  cacheScope: z.enum(["public", "private"]),
  receivedAt: z.number(),
});

/**
 * A stored value: an entry with its lists, or (without `tools`) a server's
 * plain entry whose lists are private, or a note that it missed the startup
 * wait; either of the last two with the server's facts.
 */
export type StoredEntry = Omit<MCPToolCacheEntry, "tools"> & { tools?: MCPToolDefinition[] | undefined };

/** The fields of every stored value but `tools`. */
const ENTRY_FIELDS = {
  version: z.int(),
  fingerprint: z.string().check(z.minLength(1)),
  serverInfo: z.optional(CachedServerInfoSchema),
  resources: z.optional(z.array(MCPResourceDefinitionSchema)),
  resourceTemplates: z.optional(z.array(MCPResourceTemplateDefinitionSchema)),
  prompts: z.optional(z.array(MCPPromptDefinitionSchema)),
  instructions: z.optional(z.string()),
  missedStartup: z.optional(z.object({ waitMs: z.number().check(z.nonnegative()) })),
  failedStartup: z.optional(z.object({ code: z.string(), message: z.string().check(z.maxLength(300)) })),
  era: z.optional(MCPToolCacheEraSchema),
  toolsHint: z.optional(MCPToolCacheListHintSchema),
  startMs: z.optional(z.number().check(z.nonnegative())),
  savedAt: z.number(),
  mac: z.string(),
};

/** zod schema of {@link MCPToolCacheEntry}: an entry with its lists. */
export const MCPToolCacheEntrySchema: z.ZodMiniType<MCPToolCacheEntry> = z.object({
  ...ENTRY_FIELDS,
  tools: z.array(MCPToolDefinitionSchema),
});

/** zod schema of a {@link StoredEntry}: what a write checks. */
export const StoredEntrySchema: z.ZodMiniType<StoredEntry> = z.object({
  ...ENTRY_FIELDS,
  tools: z.optional(z.array(MCPToolDefinitionSchema)),
});

/** Why a stored value was not used. */
export type EntryRejection =
  | { kind: "other-version"; version: unknown }
  | { kind: "corrupt"; reason: string }
  | { kind: "refused" }
  | { kind: "expired"; savedAt: number };

/** The result of reading a stored value. */
export type EntryCheck = { ok: true; entry: StoredEntry } | { ok: false; rejection: EntryRejection };

/** `path.to.field: message` for the first few problems zod found. */
export function describeIssues(error: z.core.$ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join(".") : "(value)";
    return `${path}: ${issue.message}`;
  });
  const more = error.issues.length > shown.length ? ` (and ${error.issues.length - shown.length} more)` : "";
  return `${shown.join("; ")}${more}`;
}

/**
 * Checks a value read from the store against the current format version, the
 * cache key (its `mac`), the expected id and the TTL. Never throws. An entry
 * whose `mac` checks out is not parsed again, only its shape checked
 * (`entryShapeProblem`): so a change of what an entry may hold bumps
 * `CACHE_FORMAT_VERSION`.
 */
export function checkEntry(
  value: unknown,
  expected: { fingerprint: string; version: number; key: CacheKey; ttlMs: number; now: number },
): EntryCheck {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, rejection: { kind: "corrupt", reason: `expected an object, got ${typeOf(value)}` } };
  }
  const version = (value as { version?: unknown }).version;
  if (typeof version === "number" && version !== expected.version) {
    return { ok: false, rejection: { kind: "other-version", version } };
  }
  // Checked on the value as stored, before anything of it is trusted (or dropped by the schema).
  const { mac, ...fields } = value as { mac?: unknown };
  if (!expected.key.verifies(fields, mac)) return { ok: false, rejection: { kind: "refused" } };
  // Its writer held the key and parsed it with the schema of this version: only its shape is checked.
  const problem = entryShapeProblem(value as Record<string, unknown>);
  if (problem !== undefined) return { ok: false, rejection: { kind: "corrupt", reason: problem } };
  const entry = value as StoredEntry;
  if (entry.fingerprint !== expected.fingerprint) {
    return { ok: false, rejection: { kind: "corrupt", reason: "fingerprint: does not match its key" } };
  }
  if (expected.now - entry.savedAt > expected.ttlMs) {
    return { ok: false, rejection: { kind: "expired", savedAt: entry.savedAt } };
  }
  return { ok: true, entry };
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? "a string" : typeof value;
}
