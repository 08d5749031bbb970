// Runs the MCP conformance suite's client scenarios against client.mjs and
// exits non-zero if any fails: `pnpm --filter @mcp-rt/client conformance`
// (build first: client.mjs imports the built packages). Scenario names may be
// given as arguments; without them it runs every scenario the 2025-11-25
// revision requires (`--requirements`), against expected-failures.yml, and
// then MODERN_SCENARIOS at 2026-07-28, against expected-failures-2026-07-28.yml.
// `--modern` runs only the latter.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The revision whose required client scenarios CI runs. */
export const REVISION = "2025-11-25";

/** The later revision some of whose client scenarios CI runs too (`--spec-version`). */
export const MODERN_REVISION = "2026-07-28";

/**
 * The client scenarios 2026-07-28 scores that need no sign-in, run at that
 * revision: the client must reach the suite's modern-only servers through
 * `protocol: "auto"`. (The auth scenarios are scored at 2025-11-25 above.)
 */
export const MODERN_SCENARIOS = [
  "tools_call",
  "request-metadata",
  "http-standard-headers",
  "http-custom-headers",
  "http-invalid-tool-headers",
  "json-schema-ref-no-deref",
  "sep-2322-client-request-state",
];

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

/** Runs one scenario (at `specVersion` when given); resolves with its exit code and everything it printed. */
export function runScenario(scenario, { timeoutMs = 60_000, specVersion } = {}) {
  const args = ["--scenario", scenario, ...(specVersion ? ["--spec-version", specVersion] : [])];
  return runSuite(args, timeoutMs).then((result) => ({ scenario, ...result }));
}

/** The scenarios a baseline file lists under `client:`. */
export function expectedFailures(file = "expected-failures.yml") {
  const text = readFileSync(join(here, file), "utf8");
  const section = /^client:[ \t]*\n((?:[ \t]+-.*\n|[ \t]*#.*\n|\s*\n)*)/m.exec(text)?.[1] ?? "";
  return [...section.matchAll(/^[ \t]+-[ \t]+(\S+)/gm)].map((match) => match[1]);
}

/**
 * Runs MODERN_SCENARIOS at 2026-07-28, one after the other, with
 * expected-failures-2026-07-28.yml as the baseline: `code` is 0 when exactly
 * the listed scenarios fail. Each result says whether it `passed`.
 */
export async function runModern() {
  const expected = expectedFailures("expected-failures-2026-07-28.yml");
  const results = [];
  for (const scenario of MODERN_SCENARIOS) {
    const result = await runScenario(scenario, { specVersion: MODERN_REVISION });
    // A scenario the suite skips also exits 0: only its verdict line counts.
    const passed = result.code === 0 && /OVERALL: PASSED/.test(result.output);
    results.push({ ...result, passed, expected: expected.includes(scenario) });
  }
  const surprises = results.filter((result) => result.passed === result.expected);
  return { code: surprises.length === 0 ? 0 : 1, results };
}

/** One line per modern result, then each output. */
export function modernReport({ results }) {
  return results
    .map((r) => {
      const verdict = r.passed ? "passed" : `FAILED (exit ${r.code})`;
      const note = r.expected ? (r.passed ? " — listed as expected to fail: remove it" : " (expected)") : "";
      return `\n=== ${MODERN_REVISION} ${r.scenario}: ${verdict}${note}\n${r.output}`;
    })
    .join("");
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

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "--modern") {
  const modern = await runModern();
  process.stdout.write(modernReport(modern));
  process.exit(modern.code);
} else if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.length <= 2) {
  const { code, output } = await runRequirements();
  process.stdout.write(output);
  const modern = await runModern();
  process.stdout.write(modernReport(modern));
  process.exit(code || modern.code);
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
