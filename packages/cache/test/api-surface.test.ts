import { describeApiSection } from "../../../test-support/api-section.js";
import * as contract from "../src/contract.js";
import * as cache from "../src/index.js";
import * as redis from "../src/redis.js";

describeApiSection({
  packageDir: new URL("../", import.meta.url),
  entry: cache,
  // The Redis store stays behind its subpath, so the root entry does not load @keyv/redis.
  internals: ["createRedisStore", "createRedisAuthStorage", "toolCacheContractTests", "CacheKey", "toKeyv"],
  subpaths: { "@mcp-rt/cache/redis": redis, "@mcp-rt/cache/contract": contract },
});
