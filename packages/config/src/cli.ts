#!/usr/bin/env node
import { homedir } from "node:os";
import { resolve } from "node:path";
import { runCli } from "./cli/run-cli.js";
import { discoverServers } from "./discover-servers.js";
import { loadAllMCPConfigs } from "./load-all-mcp-configs.js";
import { builtinSources } from "./sources/builtin-sources.js";
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
  discover: async (cwd, options) => {
    const outcome = await discoverServers(builtinSources, {
      cwd: resolve(cwd),
      homeDir,
      env: process.env,
      platform: process.platform,
      enableProjectConfig: options.enableProjectConfig !== false,
    });
    return outcome.servers;
  },
  trust: createTrustStore(),
  readSecret: (prompt) => readSecret(process.stdin, process.stderr, prompt),
});
process.exitCode = exitCode;
