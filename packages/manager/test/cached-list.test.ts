import { MCPToolCache, type MCPToolCacheEntry } from "@mcp-rt/cache";
import type { MCPServerConnection } from "@mcp-rt/client";
import type { MCPToolDefinition } from "@mcp-rt/config";
import { beforeAll, describe, expect, it } from "vitest";
import { freshCachedList, listCacheOptions } from "../src/manager-cache.js";
import { loadClient } from "../src/server/attempt.js";

const config = { type: "http" as const, url: "https://mcp.example.com/mcp" };
const tools: MCPToolDefinition[] = [{ name: "cached", inputSchema: { type: "object" } }];
const now = 1_000_000;
const hint = (ttlMs: number, cacheScope: "public" | "private", receivedAt = now - 1000) => ({
  ttlMs,
  cacheScope,
  receivedAt,
});
const entry = (toolsHint?: ReturnType<typeof hint>): MCPToolCacheEntry => ({
  version: 3,
  fingerprint: "f",
  tools,
  ...(toolsHint ? { toolsHint } : {}),
  savedAt: now,
  mac: "",
});
type Connection = Pick<MCPServerConnection, "era" | "authContext" | "toolsCacheHint">;
const modern = (authContext?: string): Connection => ({
  era: "modern",
  authContext,
  toolsCacheHint: undefined,
});

beforeAll(async () => {
  await loadClient();
});

/** What a connection gets, with `stored` kept under its own auth context (if any). */
async function fresh(
  connection: Connection,
  plain: MCPToolCacheEntry | null,
  stored?: ReturnType<typeof hint>,
) {
  const cache = new MCPToolCache(new Map());
  if (stored && connection.authContext)
    await cache.set(
      { serverName: "x", config, cwd: "/" },
      { tools, toolsHint: stored, authContext: connection.authContext },
    );
  return freshCachedList({
    connection,
    entry: plain,
    cache: { get: async () => cache },
    name: "x",
    config,
    cwd: "/",
    now,
  });
}

describe("freshCachedList", () => {
  it("takes a fresh public list, and a fresh private one of a connection without credentials", async () => {
    expect(await fresh(modern(), entry(hint(60_000, "public")))).toEqual(tools);
    expect(await fresh(modern("ann"), entry(hint(60_000, "public")))).toEqual(tools);
    expect(await fresh(modern(), entry(hint(60_000, "private")))).toEqual(tools);
  });

  it("lists again for ttlMs 0, a stale hint, no hint, or a legacy connection", async () => {
    expect(await fresh(modern(), entry(hint(0, "public")))).toBeUndefined();
    expect(await fresh(modern(), entry(hint(500, "public")))).toBeUndefined();
    expect(await fresh(modern(), entry())).toBeUndefined();
    expect(await fresh(modern(), null)).toBeUndefined();
    const legacy = { ...modern(), era: "legacy" as const };
    expect(await fresh(legacy, entry(hint(60_000, "public")))).toBeUndefined();
  });

  it("serves a private list only from the connection's own auth context", async () => {
    // A plain private entry (written without credentials) is not served to a connection that has some.
    expect(await fresh(modern("ann"), entry(hint(60_000, "private")))).toBeUndefined();
    expect(await fresh(modern("ann"), null, hint(60_000, "private"))).toEqual(tools);
    expect(await fresh(modern("ann"), null, hint(500, "private"))).toBeUndefined();
    // A public list is never kept under a context: only the attempt's plain read finds it.
    expect(await fresh(modern("ann"), null, hint(60_000, "public"))).toBeUndefined();
  });

  it("hands the hint of a list it served to the cache write, with the auth context", async () => {
    const connection = modern("ann") as MCPServerConnection;
    expect(listCacheOptions(connection)).toEqual({ authContext: "ann" });
    const served = hint(60_000, "public");
    await freshCachedList({
      connection,
      entry: entry(served),
      cache: { get: async () => null },
      name: "x",
      config,
      cwd: "/",
      now,
    });
    expect(listCacheOptions(connection)).toEqual({ toolsHint: served, authContext: "ann" });
  });
});
