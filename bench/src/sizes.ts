import { REAL_SERVER_PACKAGES } from "./real-servers.js";

/** Runs of one contender: untimed warm-up runs, then measured runs. */
export interface RunCounts {
  warmup: number;
  runs: number;
}

/** Every size and run count of a bench run. */
export interface BenchSizes {
  /** A worker that takes longer than this is stopped and its run counted as failed, in ms. */
  timeoutMs: number;
  warmStart: RunCounts & {
    servers: number;
    initDelayMs: number;
    toolsPerServer: number;
    langchainRuns: number;
    langchainTimeoutMs: number;
  };
  coldStart: RunCounts & { servers: number; toolsPerServer: number; langchainRuns: number };
  calls: RunCounts & { calls: number; warmupCalls: number };
  scale: RunCounts & { servers: number };
  reload: RunCounts & { servers: number; toolsPerServer: number };
  bigList: RunCounts & { tools: number; pageSize: number; langchainRuns: number };
  cacheStores: RunCounts & { tools: number };
  /** The example agent's process, warm cache, against a bare `node -e 0`. */
  agentStart: RunCounts;
  /** Real servers from npm (`src/real-servers.ts`): cold and warm start, then calls. */
  realServers: RunCounts & {
    /** Which of them start, by name. */
    servers: readonly string[];
    langchainRuns: number;
    /** The call part: runs per contender, and rounds of every call (`src/real-server-calls.ts`). */
    callRuns: number;
    warmupRounds: number;
    rounds: number;
  };
  /** Scenario 11: the agent's warm start over real servers, quiet and beside CPU-bound processes. */
  busyCacheReads: RunCounts & { servers: readonly string[]; busyProcesses: number };
  /** Scenario 12: legacy, dual-era and modern-only fixtures, cold and warm. */
  eras: RunCounts & { servers: number };
  /** Scenario 13: many one-tool stdio servers, cold, each server's time until its tools are live. */
  manyServers: RunCounts & { servers: number };
}

/**
 * The sizes of the issue. LangChain runs fewer times where it is slow: it
 * connects servers one after another, about 45 s for the warm start. The call
 * scenario warms up with as many calls as it times: after 500 a call still
 * took twice its steady-state time here, V8 still optimising.
 */
export const FULL: BenchSizes = {
  timeoutMs: 120_000,
  warmStart: {
    servers: 20,
    initDelayMs: 2000,
    toolsPerServer: 4,
    warmup: 1,
    runs: 5,
    langchainRuns: 2,
    langchainTimeoutMs: 150_000,
  },
  coldStart: { servers: 20, toolsPerServer: 4, warmup: 1, runs: 7, langchainRuns: 3 },
  // A run's time per call varies by a third on a shared 2-core VM; 15 runs keep the median steadier.
  calls: { calls: 5000, warmupCalls: 5000, warmup: 1, runs: 15 },
  scale: { servers: 100, warmup: 1, runs: 3 },
  reload: { servers: 20, toolsPerServer: 4, warmup: 1, runs: 5 },
  bigList: { tools: 5000, pageSize: 100, warmup: 1, runs: 7, langchainRuns: 3 },
  cacheStores: { tools: 5000, warmup: 2, runs: 15 },
  agentStart: { warmup: 2, runs: 11 },
  realServers: {
    servers: Object.keys(REAL_SERVER_PACKAGES),
    warmup: 1,
    runs: 5,
    langchainRuns: 3,
    callRuns: 5,
    warmupRounds: 200,
    rounds: 200,
  },
  busyCacheReads: { servers: Object.keys(REAL_SERVER_PACKAGES), warmup: 0, runs: 5, busyProcesses: 6 },
  eras: { servers: 10, warmup: 1, runs: 5 },
  manyServers: { servers: 40, warmup: 1, runs: 5 },
};

/** Every scenario at a tiny size, every contender once or twice: checks the harness, not the numbers. */
export const QUICK: BenchSizes = {
  timeoutMs: 60_000,
  warmStart: {
    servers: 2,
    initDelayMs: 400,
    toolsPerServer: 1,
    warmup: 0,
    runs: 1,
    langchainRuns: 1,
    langchainTimeoutMs: 60_000,
  },
  coldStart: { servers: 2, toolsPerServer: 1, warmup: 0, runs: 1, langchainRuns: 1 },
  calls: { calls: 50, warmupCalls: 10, warmup: 0, runs: 1 },
  scale: { servers: 4, warmup: 0, runs: 1 },
  reload: { servers: 2, toolsPerServer: 1, warmup: 0, runs: 1 },
  bigList: { tools: 300, pageSize: 100, warmup: 0, runs: 1, langchainRuns: 1 },
  cacheStores: { tools: 200, warmup: 0, runs: 2 },
  agentStart: { warmup: 0, runs: 1 },
  // Two of the quickest to start, both with calls.
  realServers: {
    servers: ["filesystem", "thinking"],
    warmup: 0,
    runs: 1,
    langchainRuns: 1,
    callRuns: 1,
    warmupRounds: 2,
    rounds: 5,
  },
  busyCacheReads: { servers: ["filesystem", "thinking"], warmup: 0, runs: 1, busyProcesses: 2 },
  eras: { servers: 2, warmup: 0, runs: 1 },
  manyServers: { servers: 3, warmup: 0, runs: 1 },
};
