import type { MCPToolCacheEntry } from "@mcp-rt/cache";
import type { MCPServerConnection } from "@mcp-rt/client";
import type { MCPToolDefinition } from "@mcp-rt/config";
import { beforeAll, describe, expect, it } from "vitest";
import { loadClient } from "../src/client-module.js";
import { freshCachedList, listCacheOptions } from "../src/server/cached-list.js";

const tools: MCPToolDefinition[] = [{ name: "cached", inputSchema: { type: "object" } }];
const now = 1_000_000;
const hint = (ttlMs: number, cacheScope: "public" | "private", receivedAt = now - 1000) => ({
  ttlMs,
  cacheScope,
  receivedAt,
});
const entry = (toolsHint?: ReturnType<typeof hint>): MCPToolCacheEntry => ({
  version: 4,
  fingerprint: "f",
  tools,
  ...(toolsHint ? { toolsHint } : {}),
  savedAt: now,
  mac: "",
});
type Connection = Pick<MCPServerConnection, "era" | "authContext" | "toolsCacheHint" | "cacheScope">;
const modern = (authContext = "ann"): Connection => ({
  era: "modern",
  authContext,
  toolsCacheHint: undefined,
  cacheScope: undefined,
});

beforeAll(async () => {
  await loadClient();
});

/** What a connection gets from the entry its attempt read as `readAs`. */
const fresh = (connection: Connection, entry: MCPToolCacheEntry | null, readAs = "ann") =>
  freshCachedList({ connection, entry, readAs, now });

describe("freshCachedList", () => {
  it("takes a fresh list the attempt read: public, or private read as the connection's own context", () => {
    expect(fresh(modern(), entry(hint(60_000, "public")))).toEqual(tools);
    expect(fresh(modern("bob"), entry(hint(60_000, "public")))).toEqual(tools);
    expect(fresh(modern(), entry(hint(60_000, "private")))).toEqual(tools);
  });

  it("lists again for ttlMs 0, a stale hint, no hint, or a legacy connection", () => {
    expect(fresh(modern(), entry(hint(0, "public")))).toBeUndefined();
    expect(fresh(modern(), entry(hint(500, "public")))).toBeUndefined();
    expect(fresh(modern(), entry())).toBeUndefined();
    expect(fresh(modern(), null)).toBeUndefined();
    const legacy = { ...modern(), era: "legacy" as const };
    expect(fresh(legacy, entry(hint(60_000, "public")))).toBeUndefined();
  });

  it("never serves a private list read as one context to a connection that turned out another", () => {
    // A sign-in during the connect changed who the connection is.
    expect(fresh(modern("bob"), entry(hint(60_000, "private")), "ann")).toBeUndefined();
  });

  it("hands the hint of a list it served to the cache write, with the scope and the auth context", () => {
    const connection = modern() as MCPServerConnection;
    expect(listCacheOptions(connection)).toEqual({ authContext: "ann" });
    const served = hint(60_000, "public");
    freshCachedList({ connection, entry: entry(served), readAs: "ann", now });
    expect(listCacheOptions(connection)).toEqual({ toolsHint: served, authContext: "ann" });
    const scoped = { ...modern(), cacheScope: "private" } as MCPServerConnection;
    expect(listCacheOptions(scoped)).toEqual({ cacheScope: "private", authContext: "ann" });
  });
});
