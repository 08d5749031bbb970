import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { childProcessesOf } from "@mcp-rt/testing";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { alternate } from "../src/alternate.js";
import { SCENARIOS } from "../src/scenarios/index.js";
import { ratio, summarize } from "../src/stats.js";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], timeoutMs: number, env?: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { timeout: timeoutMs, env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const hasRedisServer = spawnSync("redis-server", ["--version"]).status === 0;

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  expect(childProcessesOf(process.pid)).toEqual([]);
});

describe("pnpm bench:quick", () => {
  beforeAll(() => {
    if (!existsSync(cli)) {
      throw new Error(`${cli} is missing: run "pnpm build" (or "pnpm --filter @mcp-rt/bench build") first`);
    }
  });

  it("runs every scenario at tiny sizes and writes a well-formed report", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcp-rt-bench-test-"));
    temps.push(dir);
    const out = join(dir, "RESULTS.md");
    // A temp folder of its own: another bench running on the machine cannot look like a leftover.
    const tmp = join(dir, "tmp");
    await mkdir(tmp);

    const run = await runCli(["--quick", "--out", out], 170_000, { ...process.env, TMPDIR: tmp });
    expect(run.stderr).toContain("report written to");
    expect(run.code, run.stderr).toBe(0);

    const report = await readFile(out, "utf8");
    expect(report).toMatch(/^# mcp-rt benchmarks\n/);
    expect(report).toMatch(/^- Machine: .+, \d+ cores, /m);
    expect(report).toContain(`- Node: ${process.version}`);
    expect(report).toMatch(/^- Date: \d{4}-\d\d-\d\dT/m);
    expect(report).not.toContain("Could not run");
    expect(report).not.toContain("Failed runs");

    for (const scenario of SCENARIOS) {
      const start = report.indexOf(`\n## ${scenario.number}. `);
      expect(start, `section of scenario ${scenario.number}`).toBeGreaterThan(0);
      const next = report.indexOf("\n## ", start + 1);
      const section = report.slice(start, next === -1 ? undefined : next);
      expect(section).toContain("| contender | runs | median | min | max |");
      // mcp-rt's row (the memory store's, for the cache scenario) shows runs and a median with its unit;
      // where mcp-rt runs more than one way, each row says which after its name.
      expect(section).toMatch(/^\| (mcp-rt(,[^|]*)?|memory \(Map\)) \| [1-9]\d* \| [\d.]+ (ms|µs|MB) \|/m);
      expect(section).toMatch(/^- Target: .+ — \*\*(met|not met)\*\*$/m);
    }
    for (const contender of ["raw SDK", "LangChain MultiServerMCPClient"]) {
      expect(report).toMatch(new RegExp(`^\\| ${contender} \\| [1-9]\\d* \\| [\\d.]+ ms \\|`, "m"));
    }
    // CI installs redis-server; without one the report says so instead of measuring.
    if (hasRedisServer) expect(report).toMatch(/^\| Redis \(@mcp-rt\/cache\/redis\) \| [1-9]\d* \|/m);
    else expect(report).toContain("Redis not measured");

    const targetRows = report
      .slice(report.indexOf("## Targets"), report.indexOf("\n## 1. "))
      .split("\n")
      .filter((line) => /^\| \d+ \|/.test(line));
    expect(targetRows.length).toBeGreaterThanOrEqual(SCENARIOS.length);
    for (const row of targetRows) expect(row).toMatch(/\| (met|not met) \|$/);

    // Its temp folders are gone.
    const leftovers = (await readdir(tmp)).filter((name) => name.startsWith("mcp-rt-bench-"));
    expect(leftovers).toEqual([]);
  }, 180_000);

  it("rejects an unknown scenario with its usage and exit code 2 (after a passed-through `--`)", async () => {
    const run = await runCli(["--", "--quick", "--only", "nope"], 20_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown scenario(s): nope");
    expect(run.stderr).toContain("usage: node dist/cli.js");
  });
});

describe("statistics", () => {
  it("takes medians of odd and even counts, and ratios of medians", () => {
    expect(summarize([5, 1, 3])).toEqual({ runs: 3, median: 3, min: 1, max: 5 });
    expect(summarize([4, 1, 3, 2])).toEqual({ runs: 4, median: 2.5, min: 1, max: 4 });
    expect(summarize([])).toBeUndefined();
    expect(ratio(summarize([2, 4, 6]), summarize([1, 2, 3]))).toBe(2);
    expect(ratio(summarize([2]), undefined)).toBeUndefined();
  });

  it("alternates contenders after the warm-up, keeps failures apart and lets a shorter plan drop out", async () => {
    const order: string[] = [];
    const plan = (id: string, warmup: number, runs: number, fail = -1) => {
      let n = 0;
      return {
        id,
        warmup,
        runs,
        run: async () => {
          const index = n++;
          order.push(`${id}${index}`);
          if (index === fail) throw new Error(`boom ${id}`);
          return index;
        },
      };
    };
    const outcomes = await alternate([plan("a", 1, 3), plan("b", 1, 3, 2), plan("c", 0, 1)]);
    expect(order).toEqual(["a0", "b0", "a1", "b1", "c0", "a2", "b2", "a3", "b3"]);
    expect(outcomes.get("a")).toEqual({ results: [1, 2, 3], failures: [] });
    expect(outcomes.get("b")).toEqual({ results: [1, 3], failures: ["run 2: boom b"] });
    expect(outcomes.get("c")).toEqual({ results: [0], failures: [] });
  });
});
