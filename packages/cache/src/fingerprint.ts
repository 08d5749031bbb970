import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { isStdioConfig, type MCPServerConfig } from "@mcp-rt/config";

/**
 * The layout of a cache entry. Part of every fingerprint, so entries written by
 * an mcp-rt with another layout are never read, only left to expire. 2: keyed
 * by an HMAC and signed (`mac`). 4: a server's lists are kept per auth context
 * when any is private, and its plain entry then holds its facts alone (no
 * `tools`), which a reader of 3 would take for a server without tools. A
 * reader does not parse an entry of its version whose `mac` checks out (its
 * writer did, before signing it), it only checks its shape: a change of what
 * an entry may hold needs a new version, unless it is an optional field that
 * a reader without it ignores and one with it checks (the `mac` covers every
 * stored field, known or not).
 */
export const CACHE_FORMAT_VERSION = 4;

/** JSON with object keys sorted at every depth, so equal configs give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort()) sorted[key] = (item as Record<string, unknown>)[key];
    return sorted;
  });
}

/**
 * The folder a stdio server runs in: its `cwd` resolved against the agent's. HTTP
 * servers run elsewhere, so their entries are shared by every project.
 */
export function serverWorkingFolder(config: MCPServerConfig, cwd: string | undefined): string | null {
  if (!isStdioConfig(config)) return null;
  return resolve(cwd ?? process.cwd(), config.cwd ?? ".");
}

/** Which server a cache entry is for. */
export interface ToolCacheServer {
  /** The server's name in its config file. */
  serverName: string;
  /** Its config as written (unresolved): a changed config is another entry. */
  config: MCPServerConfig;
  /** The agent's folder, against which a stdio server's `cwd` resolves. @default process.cwd() */
  cwd?: string | undefined;
}

/**
 * What identifies a server's entry: SHA-256 (hex) over the format version, the
 * server name, the canonical JSON of its config as the caller passes it (less
 * `alwaysLoad`, `toolChanges` and `poisoning`, which change nothing of what
 * the server lists) and,
 * for stdio servers, the folder it runs in. Equal configs give equal
 * fingerprints, a changed one another. It is not secret (anyone who knows the
 * config can compute it), so it never reaches the store as it is: the store
 * key and the entry carry an HMAC of it under the cache key (see `CacheKey`).
 */
export function toolCacheFingerprint(
  { serverName, config, cwd }: ToolCacheServer,
  version: number = CACHE_FORMAT_VERSION,
): string {
  // These change how a host offers the tools, not which tools there are: pinning or a policy keeps the entry.
  const { alwaysLoad: _offered, toolChanges: _changes, poisoning: _poisoning, ...listed } = config;
  const parts = [version, serverName, canonicalJson(listed), serverWorkingFolder(config, cwd)];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/**
 * What identifies a private list's entry: the server's fingerprint and the
 * auth context it was listed under (`connection.authContext`), so that an
 * entry is only ever found by a reader of the same context (SEP-2549).
 */
export function privateFingerprint(fingerprint: string, authContext: string): string {
  return createHash("sha256")
    .update(JSON.stringify(["private", fingerprint, authContext]))
    .digest("hex");
}

/** The store key of an entry: the cache's namespace and the entry's id (`CacheKey.entryId`), nothing else. */
export function toolCacheKey(namespace: string, entryId: string): string {
  return `${namespace}:${entryId}`;
}
