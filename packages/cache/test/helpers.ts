// The cache tests' helpers, in one place. The store probes, the recording
// logger and the sample tools live in src/contract-support.ts because the
// shipped contract suite uses them too.

export { useTempDir } from "../../../test-support/temp-dir.js";
export { probeStore, recordingLogger, sampleTools } from "../src/contract-support.js";
