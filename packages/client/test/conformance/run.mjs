// Runs the MCP conformance suite's client scenarios against client.mjs and
// exits non-zero if any fails: `pnpm --filter @mcp-rt/client conformance`
// (build first: client.mjs imports the built packages). Scenario names may be
// given as arguments; without them it runs every scenario the 2025-11-25
// revision requires (`--requirements`), against expected-failures.yml.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The revision whose required client scenarios CI runs. */
export const REVISION = "2025-11-25";

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, "..", "..");
const conformanceDir = dirname(
  createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json"),
);
const conformanceBin = join(conformanceDir, "dist/index.js");

/** The client scenarios `revision` scores, from the suite's own requirement file. */
export function requiredScenarios(revision = REVISION) {
  const text = readFileSync(join(conformanceDir, "requirements", `${revision}.yaml`), "utf8");
  const section = /^client:\n((?:[ \t]+-.*\n|[ \t]*#.*\n|\s*\n)*)/m.exec(text)?.[1] ?? "";
  return [...section.matchAll(/^[ \t]+-[ \t]+(\S+)/gm)].map((match) => match[1]);
}

/** Runs one scenario; resolves with its exit code and everything it printed. */
export function runScenario(scenario, { timeoutMs = 60_000 } = {}) {
  return runSuite(["--scenario", scenario], timeoutMs).then((result) => ({ scenario, ...result }));
}

/**
 * Runs every client scenario `revision` requires (in parallel, as the suite
 * does), with expected-failures.yml as the baseline: exit 0 when exactly the
 * listed scenarios fail.
 */
export function runRequirements(revision = REVISION, { timeoutMs = 240_000 } = {}) {
  const baseline = join(here, "expected-failures.yml");
  return runSuite(["--requirements", revision, "--expected-failures", baseline], timeoutMs);
}

function runSuite(args, timeoutMs) {
  // The suite splits --command on spaces; relative to packageDir, the client's path has none.
  const command = `${process.execPath} ${join("test", "conformance", "client.mjs")}`;
  const child = spawn(
    process.execPath,
    [
      "--import",
      join(here, "node20-glob-sync.mjs"),
      conformanceBin,
      "client",
      "--command",
      command,
      ...args,
      "--timeout",
      "30000",
    ],
    { cwd: packageDir, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.length <= 2) {
  const { code, output } = await runRequirements();
  process.stdout.write(output);
  process.exit(code);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const scenarios = process.argv.slice(2);
  let failures = 0;
  for (const scenario of scenarios) {
    const { code, output } = await runScenario(scenario);
    process.stdout.write(`\n=== ${scenario}: ${code === 0 ? "passed" : `FAILED (exit ${code})`}\n${output}`);
    if (code !== 0) failures++;
  }
  console.log(`\nconformance: ${scenarios.length - failures} passed, ${failures} failed`);
  process.exit(failures === 0 ? 0 : 1);
}
