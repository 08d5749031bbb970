import { randomBytes, randomUUID } from "node:crypto";
import type { MCPHttpServerConfig, MCPStdioServerConfig } from "@mcp-rt/config";
import { CacheKey } from "./cache-key.js";
import { type ProbeStore, probeStore, type RawStore, recordingLogger } from "./contract-support.js";
import { toolCacheFingerprint, toolCacheKey } from "./fingerprint.js";
import { MCPToolCache } from "./mcp-tool-cache.js";
import type { MCPToolCacheOptions } from "./mcp-tool-cache-options.js";

/** The `it` (or `test`) function of any test runner: vitest, jest, `node:test`. */
export type ContractIt = (name: string, fn: () => void | Promise<void>) => unknown;

/** Returns a fresh handle on the store under test; entries may outlive it (the cases use unique keys). */
export type MakeStore = () => RawStore | Promise<RawStore>;

/** A stdio config the cases cache tools for. */
export const stdio: MCPStdioServerConfig = {
  command: "node",
  args: ["server.js", "--port", "0"],
  env: { LOG_LEVEL: "debug" },
};
/** A remote config the cases cache tools for. */
export const http: MCPHttpServerConfig = {
  url: "https://mcp.example.com/mcp",
  headers: { "X-Team": "core" },
};
/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Either kind of server config. */
export type Config = MCPStdioServerConfig | MCPHttpServerConfig;

/**
 * What one case gets: the store, a probe around it, and a cache factory with a
 * unique namespace and a key of the case (so the suite never makes a key file).
 */
export interface Case {
  store: RawStore;
  probe: ProbeStore;
  namespace: string;
  /** The secret the case's caches use unless told otherwise. */
  secret: string;
  logger: ReturnType<typeof recordingLogger>;
  cache(options?: MCPToolCacheOptions & { through?: "store" | "probe" }): MCPToolCache;
  /** The store key of a server's entry under the case's key. */
  key(serverName: string, config: Config, cwd?: string): string;
  /** A stored value, signed with `secret` (default: the case's) as a cache would write it. */
  signed(fields: Record<string, unknown>, secret?: string): { value: Record<string, unknown> };
}

/** Runs `body` with a fresh {@link Case} on a store from `makeStore`, and disconnects it after. */
export function withCase(makeStore: MakeStore, body: (c: Case) => Promise<void>): () => Promise<void> {
  return async () => {
    const store = await makeStore();
    const probe = probeStore(store);
    const namespace = `contract-${randomUUID()}`;
    const secret = randomBytes(32).toString("hex");
    const cacheKey = new CacheKey(secret);
    const logger = recordingLogger();
    try {
      await body({
        store,
        probe,
        namespace,
        secret,
        logger,
        // Latency is not under test (but in the slow-store case): a loaded CI
        // machine must not turn a hit into a timeout miss.
        cache: ({ through = "store", ...options } = {}) =>
          new MCPToolCache(through === "probe" ? probe : store, {
            namespace,
            logger,
            readTimeoutMs: 5000,
            key: secret,
            ...options,
          }),
        key: (serverName, config, cwd) =>
          toolCacheKey(namespace, cacheKey.entryId(toolCacheFingerprint({ serverName, config, cwd }))),
        signed: (fields, other = secret) => ({ value: { ...fields, mac: new CacheKey(other).sign(fields) } }),
      });
    } finally {
      await probe.settled();
      if (!(store instanceof Map)) await store.disconnect?.();
    }
  };
}
