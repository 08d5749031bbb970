import { randomBytes } from "node:crypto";
import { createFileStore, type MCPServerConfig, MCPToolCache, type MCPToolDefinition } from "@mcp-rt/manager";
import type { CacheStoreId, CacheStoresResult, CacheStoresTask } from "../tasks.js";
import { since } from "./measure.js";

/** Tool definitions shaped like a real server's: a name, a sentence, a small JSON Schema. */
export function makeToolDefinitions(count: number): MCPToolDefinition[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool number ${i}: returns its name, or its name and the input when one is given.`,
    inputSchema: {
      type: "object" as const,
      properties: { input: { type: "string", description: "Optional text echoed back." } },
      additionalProperties: false,
    },
  }));
}

// Reads slower than this would make the cache miss; here the real time is wanted.
const NO_READ_LIMIT_MS = 60_000;

async function openStores(task: CacheStoresTask): Promise<Map<CacheStoreId, MCPToolCache>> {
  // A key of the run: the real ~/.mcp-rt is left alone.
  const options = { readTimeoutMs: NO_READ_LIMIT_MS, writeTimeoutMs: NO_READ_LIMIT_MS, key: randomBytes(32) };
  const stores = new Map<CacheStoreId, MCPToolCache>([
    ["memory", new MCPToolCache(new Map(), options)],
    ["file", new MCPToolCache(createFileStore(task.fileDir), options)],
  ]);
  if (task.redisUrl) {
    const { createRedisStore } = await import("@mcp-rt/cache/redis");
    stores.set("redis", new MCPToolCache(createRedisStore(task.redisUrl), options));
  }
  return stores;
}

/**
 * `MCPToolCache.set` then `get` of one entry of `task.tools` definitions on
 * each store, the stores taking turns, after `task.warmup` untimed rounds.
 */
export async function cacheStores(task: CacheStoresTask): Promise<CacheStoresResult> {
  const tools = makeToolDefinitions(task.tools);
  const config: MCPServerConfig = { command: "node", args: ["big-server.js"] };
  const stores = await openStores(task);
  const times: CacheStoresResult["stores"] = {};
  try {
    for (let round = 0; round < task.warmup + task.runs; round++) {
      for (const [id, cache] of stores) {
        const setStart = performance.now();
        await cache.set({ serverName: "big", config, cwd: task.fileDir }, { tools });
        const setMs = since(setStart);
        const getStart = performance.now();
        const read = await cache.get({ serverName: "big", config, cwd: task.fileDir });
        const getMs = since(getStart);
        if (read?.length !== tools.length) {
          throw new Error(`${id} store: read back ${read?.length ?? "nothing"} of ${tools.length} tools`);
        }
        if (round < task.warmup) continue;
        const entry = times[id] ?? { get: [], set: [] };
        times[id] = entry;
        entry.get.push(getMs);
        entry.set.push(setMs);
      }
    }
  } finally {
    await Promise.allSettled([...stores.values()].map((cache) => cache.close()));
  }
  const entryBytes = Buffer.byteLength(JSON.stringify({ tools }));
  return { kind: "cache-stores", entryBytes, stores: times };
}
