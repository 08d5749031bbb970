import { type MetricTable, medianAtMost, type Scenario, type ScenarioReport } from "../scenario.js";
import { ratio, summarize } from "../stats.js";
import type { CacheStoreId } from "../tasks.js";

const STORE_LABELS: Record<CacheStoreId, string> = {
  memory: "memory (Map)",
  file: "file (createFileStore)",
  redis: "Redis (@mcp-rt/cache/redis)",
};

/** `MCPToolCacheOptions.readTimeoutMs`' default: a slower read is a cache miss at startup. */
const READ_TIMEOUT_MS = 100;

/** 7. The cache stores with one big entry. */
export const cacheStores: Scenario = {
  number: 7,
  id: "cache-stores",
  title: "Cache stores",
  async run(context): Promise<ScenarioReport> {
    const size = context.sizes.cacheStores;
    const fileDir = await context.tempDir("cache-stores");
    const result = await context.worker({
      kind: "cache-stores",
      tools: size.tools,
      warmup: size.warmup,
      runs: size.runs,
      fileDir,
      ...(context.redisUrl ? { redisUrl: context.redisUrl } : {}),
    });
    const table = (operation: "get" | "set"): MetricTable => {
      const base = summarize(result.stores.memory?.[operation] ?? []);
      return {
        metric: `MCPToolCache.${operation} of the ${size.tools}-tool entry`,
        unit: "ms",
        baseline: STORE_LABELS.memory,
        rows: (Object.keys(STORE_LABELS) as CacheStoreId[]).flatMap((id) => {
          const samples = result.stores[id]?.[operation];
          if (!samples) return [];
          const summary = summarize(samples);
          const r = ratio(summary, base);
          return [
            {
              contender: STORE_LABELS[id],
              failures: [],
              ...(summary ? { summary } : {}),
              ...(r === undefined ? {} : { ratio: r }),
            },
          ];
        }),
      };
    };
    const stores = (Object.keys(STORE_LABELS) as CacheStoreId[]).filter(
      (id) => id !== "redis" || context.redisUrl,
    );
    return {
      number: 7,
      title: `Cache stores: get/set of a ${size.tools}-tool entry`,
      setup: [
        `One entry of ${size.tools} tool definitions (${(result.entryBytes / 1024).toFixed(0)} KiB of JSON) through \`MCPToolCache\` (fingerprint, zod validation, TTL check) on each store, in one fresh process; each round sets then gets it on every store in turn; ${size.warmup} untimed round(s), then ${size.runs}.`,
        "The read limit is lifted for the measurement, so a slow read shows its real time instead of a miss.",
      ],
      tables: [table("get"), table("set")],
      targets: stores.map((id) =>
        medianAtMost({
          target: `${STORE_LABELS[id]} get ≤ ${READ_TIMEOUT_MS} ms (the default readTimeoutMs: a slower read is a miss at startup)`,
          summary: summarize(result.stores[id]?.get ?? []),
          limit: READ_TIMEOUT_MS,
          unit: "ms",
        }),
      ),
      notes: context.redisUrl
        ? [`Redis: a \`redis-server\` started for this run on ${context.redisUrl} (no persistence).`]
        : [`Redis not measured: ${context.redisMissing ?? "no redis-server"}.`],
    };
  },
};
