#!/usr/bin/env node
/**
 * `pnpm bench` / `pnpm bench:quick`: runs the scenarios of issue 10 side by
 * side and writes the report (RESULTS.md in full mode).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { errorStack } from "@mcp-rt/config/util";
import type { RunListener } from "./alternate.js";
import { describeMachine } from "./machine.js";
import { startRedisServer } from "./redis-server.js";
import { type BenchReport, renderReport } from "./report.js";
import { runInWorker } from "./run-in-worker.js";
import type { ScenarioContext, ScenarioReport } from "./scenario.js";
import { SCENARIOS } from "./scenarios/index.js";
import { FULL, QUICK } from "./sizes.js";

const USAGE = `usage: node dist/cli.js [--quick] [--out <file>] [--only <id|number>,…] [--profile <dir>]

  --quick            every scenario at tiny sizes (checks the harness, not the numbers)
  --out <file>       where to write the report (full mode: bench/RESULTS.md; quick mode: stdout only)
  --only <list>      scenarios to run, by number or id (${SCENARIOS.map((s) => s.id).join(", ")});
                     without --out the report goes to stdout, RESULTS.md is left alone
  --profile <dir>    run mcp-rt's workers with --cpu-prof, profiles in <dir>`;

const resultsPath = resolve(dirname(fileURLToPath(import.meta.url)), "..", "RESULTS.md");

function parse() {
  try {
    // `pnpm … bench -- --only 3` passes the `--` along; it separates nothing here.
    const args = process.argv.slice(2);
    return parseArgs({
      args: args[0] === "--" ? args.slice(1) : args,
      options: {
        quick: { type: "boolean", default: false },
        out: { type: "string" },
        only: { type: "string" },
        profile: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
}

function selectScenarios(only: string | undefined) {
  if (only === undefined) return [...SCENARIOS];
  const wanted = only
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = wanted.filter((w) => !SCENARIOS.some((s) => s.id === w || String(s.number) === w));
  if (unknown.length > 0) {
    process.stderr.write(`unknown scenario(s): ${unknown.join(", ")}\n\n${USAGE}\n`);
    process.exit(2);
  }
  return SCENARIOS.filter((s) => wanted.includes(s.id) || wanted.includes(String(s.number)));
}

function describeResult(result: unknown): string {
  if (typeof result !== "object" || result === null || !("ms" in result)) return "ok";
  return `${(result as { ms: number }).ms.toFixed(1)} ms`;
}

async function main(): Promise<number> {
  const args = parse();
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const mode = args.quick ? "quick" : "full";
  const sizes = args.quick ? QUICK : FULL;
  const scenarios = selectScenarios(args.only);
  const out = args.out ?? (mode === "full" && args.only === undefined ? resultsPath : undefined);
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };

  const startedAt = new Date();
  const machine = describeMachine();
  const root = await mkdtemp(join(tmpdir(), "mcp-rt-bench-"));
  const profileDir = args.profile ? resolve(args.profile) : undefined;
  if (profileDir) await mkdir(profileDir, { recursive: true });
  const redis = await startRedisServer();
  let failedRuns = 0;
  const reports: ScenarioReport[] = [];
  const crashed: BenchReport["crashed"] = [];
  try {
    for (const scenario of scenarios) {
      const prefix = `[${scenario.number}/${SCENARIOS.length} ${scenario.id}]`;
      const onRun: RunListener = (event) => {
        const what = `${prefix} ${event.id} ${event.phase} ${event.index + 1}/${event.of}`;
        if (event.error) {
          failedRuns++;
          log(`${what} FAILED: ${event.error.message}`);
        } else {
          log(`${what}: ${describeResult(event.result)}`);
        }
      };
      const context: ScenarioContext = {
        mode,
        sizes,
        log: (line) => log(`${prefix} ${line}`),
        onRun,
        tempDir: (name) => mkdtemp(join(root, `${name}-`)),
        worker: (task, timeoutMs) => {
          const profiled = profileDir && (!("contender" in task) || task.contender === "mcp-rt");
          return runInWorker(task, {
            timeoutMs: timeoutMs ?? sizes.timeoutMs,
            // Quick mode checks the harness, not the numbers (and runs beside other tests in CI).
            waitForOrphans: mode === "full",
            ...(profiled ? { execArgv: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] } : {}),
          });
        },
        ...("url" in redis ? { redisUrl: redis.url } : { redisMissing: redis.missing }),
      };
      log(`${prefix} ${scenario.title}`);
      try {
        reports.push(await scenario.run(context));
      } catch (error) {
        const message = errorStack(error);
        log(`${prefix} could not run: ${message}`);
        crashed.push({ number: scenario.number, title: scenario.title, error: message });
      }
    }
  } finally {
    if ("url" in redis) await redis.stop();
    await rm(root, { recursive: true, force: true });
  }

  const command = mode === "quick" ? "pnpm bench:quick" : "pnpm bench";
  const report: BenchReport = {
    mode,
    machine,
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    command: args.only ? `${command} --only ${args.only}` : command,
    scenarios: reports,
    crashed,
  };
  const markdown = renderReport(report);
  if (out) {
    await writeFile(out, markdown);
    log(`report written to ${out}`);
  } else {
    process.stdout.write(markdown);
  }
  const verdicts = reports.flatMap((scenario) => scenario.targets);
  log(
    `${verdicts.filter((t) => t.met).length} of ${verdicts.length} targets met; ${failedRuns} failed run(s); ${crashed.length} scenario(s) could not run`,
  );
  return failedRuns > 0 || crashed.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${errorStack(error)}\n`);
    process.exitCode = 1;
  },
);
