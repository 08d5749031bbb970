#!/usr/bin/env node
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { errorStack } from "@mcp-rt/config/util";
import { writeDeepSchemasByHand } from "./deep-schema.js";
import type { FixtureHooks } from "./fixture-mcp-server.js";
import { type FixtureCommandLine, parseFixtureCommandLine, TERMINAL_ESCAPES } from "./fixture-options.js";
import { appendPidFileEntry } from "./pid-file.js";

// The fixture MCP server program. Each flag switches on one scripted
// behaviour; see fixture-options.ts and the package README for the list.

const NOISE_LINE = `${"noise ".repeat(20)}\n`;

function createHooks(name: string, quiet: boolean | undefined): FixtureHooks {
  const log = (line: string): void => {
    if (!quiet) process.stderr.write(`[fixture ${name} ${process.pid}] ${line}\n`);
  };
  return {
    log,
    exit(code, why) {
      log(why);
      process.exit(code);
    },
  };
}

function startProcessBehaviours(options: FixtureCommandLine, hooks: FixtureHooks): void {
  if (options.ignoreSigterm) {
    process.on("SIGTERM", () => hooks.log("ignoring SIGTERM (--ignore-sigterm)"));
    // Nor does a client that went away: logging into its closed stderr pipe (EPIPE) must not end it.
    process.stderr.on("error", () => {});
    // Keeps the process alive after stdin closes: only SIGKILL ends it.
    setInterval(() => {}, 1 << 30);
  }
  if (options.spawnGrandchild) {
    const grandchild = spawn(process.execPath, ["-e", "setInterval(() => {}, 1e9)"], { stdio: "ignore" });
    grandchild.unref();
    if (grandchild.pid !== undefined) {
      if (options.pidFile) appendPidFileEntry(options.pidFile, "grandchild", grandchild.pid);
      hooks.log(`spawned grandchild ${grandchild.pid} (--spawn-grandchild)`);
    }
  }
  if (options.schemaDepth !== undefined) writeDeepSchemasByHand(options.schemaDepth);
  if (options.noisyStderr) {
    process.stderr.write(NOISE_LINE.repeat(Math.ceil((128 * 1024) / NOISE_LINE.length)));
    let seq = 0;
    setInterval(() => process.stderr.write(`noise ${++seq} ${NOISE_LINE}`), 5).unref();
  }
}

/** Keeps the CPU busy until this process has used `ms` of CPU time since it was called; reads nothing meanwhile. */
function spendCpu(ms: number, hooks: FixtureHooks): void {
  const start = process.cpuUsage();
  let used = 0;
  while (used < ms) {
    const { user, system } = process.cpuUsage(start);
    used = (user + system) / 1000;
  }
  hooks.log(`spent ${Math.round(used)} ms of CPU at start (--start-cpu-ms)`);
}

async function main(): Promise<void> {
  const parsed = parseFixtureCommandLine(process.argv.slice(2));
  if (!parsed.ok) {
    process.stderr.write(`mcp-rt fixture: ${parsed.error}\n`);
    process.exit(2);
  }
  const options = parsed.value;
  const hooks = createHooks(options.name ?? "mcp-rt-fixture", options.quiet);
  if (options.pidFile) appendPidFileEntry(options.pidFile, "server");
  // First, so that a server that exits at start has written them too.
  if (options.escapes) hooks.log(`starting (--escapes)${TERMINAL_ESCAPES}`);
  if (options.stderrBanner) process.stderr.write(`${options.stderrBanner}\n`);
  if (options.exitCode !== undefined && (!options.exitWhileFile || existsSync(options.exitWhileFile))) {
    if (options.exitDelayMs) await sleep(options.exitDelayMs);
    hooks.exit(options.exitCode, `exiting at start with code ${options.exitCode} (--exit-code)`);
  }
  if (options.startCpuMs) spendCpu(options.startCpuMs, hooks);
  startProcessBehaviours(options, hooks);
  // Loaded on demand: a garbage-writing stdio server starts without the SDK, so
  // its first line comes out quickly even on a loaded machine.
  if (options.transport === "stdio")
    await (await import("./run-stdio-fixture.js")).runStdioFixture(options, hooks);
  else await (await import("./run-http-fixture.js")).runHttpFixture(options, hooks);
}

main().catch((error: unknown) => {
  process.stderr.write(`mcp-rt fixture: ${errorStack(error)}\n`);
  process.exit(1);
});
