export type { BrowserStandIn, BrowserStandInOptions } from "./browser-stand-in.js";
export { createBrowserStandIn } from "./browser-stand-in.js";
export {
  childProcessesOf,
  isProcessAlive,
  serverProcessesOf,
  waitForProcessExit,
} from "./child-processes.js";
export type {
  FixtureCommandLine,
  FixtureEra,
  FixtureOptions,
  FixtureProbeAnswer,
  ParseFixtureCommandLineResult,
} from "./fixture-options.js";
export { fixtureArgs, parseFixtureCommandLine, TERMINAL_ESCAPES } from "./fixture-options.js";
export {
  busyStartServer,
  contentServer,
  crashAfterInitServer,
  crashOnCallServer,
  dualEraServer,
  echoServer,
  exitServer,
  fixtureServer,
  fixtureServerPath,
  garbageServer,
  grandchildServer,
  hangingServer,
  hugeOutputServer,
  legacyServer,
  listChangingServer,
  manyToolsServer,
  modernServer,
  noisyStderrServer,
  sigtermIgnoringServer,
  silentServer,
  slowCallServer,
  slowInitServer,
} from "./fixtures.js";
export type { HttpFixture, HttpFixtureOptions } from "./http-fixture.js";
export { startHttpFixture } from "./http-fixture.js";
export type { OAuthFixture, OAuthFixtureCounts, OAuthFixtureOptions } from "./oauth-fixture.js";
export { startOAuthFixture } from "./oauth-fixture.js";
export type { PidFileEntry } from "./pid-file.js";
export { readPidFile, readPidFileEntries } from "./pid-file.js";
export type { PoisonedCase } from "./poisoning-corpus.js";
export { POISONED_DEFINITIONS, tagSmuggled } from "./poisoning-corpus.js";
export type { RealServerDefinitions } from "./real-server-corpus.js";
export { driftCorpus, realServerDefinitions } from "./real-server-corpus.js";
export type { RedisServer } from "./redis-server.js";
export { freePort, hasRedisServer, redisUnavailable, startRedisServer } from "./redis-server.js";
