#!/usr/bin/env node
import { homedir } from "node:os";
import { discoverEntries } from "./cli/discover-entries.js";
import { runCli } from "./cli/run-cli.js";
import { loadAllMCPConfigs } from "./load-all-mcp-configs.js";
import { createTrustStore } from "./trust-store.js";
import { readSecret } from "./util/read-secret.js";

// `mcp-rt-config`: what a default agent session would start in a folder, and why.
const homeDir = homedir();
const exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  homeDir,
  load: (cwd, options) => loadAllMCPConfigs(cwd, { homeDir, ...options }),
  discover: (cwd, options) => discoverEntries(cwd, { homeDir, ...options }),
  trust: createTrustStore(),
  readSecret: (prompt) => readSecret(process.stdin, process.stderr, prompt),
});
process.exitCode = exitCode;
