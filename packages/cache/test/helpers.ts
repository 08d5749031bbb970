// The cache tests' helpers, in one place. The store probes, the recording
// logger and the sample tools live in src/contract-support.ts because the
// shipped contract suite uses them too.

export { useTempDir } from "../../../test-support/temp-dir.js";
export { probeStore, recordingLogger, sampleTools } from "../src/contract-support.js";

/**
 * The key the tests' file and Redis caches use, so that no test makes the
 * installation's key file in the real home (`~/.mcp-rt/cache-key`).
 */
export const testCacheKey = "mcp-rt-cache-tests-0123456789abcdef";
