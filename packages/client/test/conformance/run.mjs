// Runs the MCP conformance suite's client scenarios against client.mjs and
// exits non-zero if any fails: `pnpm --filter @mcp-rt/client conformance`
// (build first: client.mjs imports the built packages). Scenario names may be
// given as arguments; without them it runs every scenario the 2025-11-25
// revision requires, three at a time, against expected-failures.yml, and
// then MODERN_SCENARIOS and the auth scenarios at 2026-07-28, against
// expected-failures-2026-07-28.yml. `--modern` runs only the latter two.
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
 * `protocol: "auto"`. (The auth scenarios run at both revisions, below.)
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

/** The auth client scenarios 2026-07-28 scores (`iss-*`, `metadata-issuer-mismatch`, …), from its requirement file. */
export function modernAuthScenarios() {
  return requiredScenarios(MODERN_REVISION).filter((scenario) => scenario.startsWith("auth/"));
}

/**
 * Runs `scenarios` at `specVersion`, `concurrency` at a time (the suite's
 * own `--requirements` run starts them all at once, and they time out on a
 * busy machine), with the baseline file `expected`: `code` is 0 when exactly
 * the listed scenarios fail. Each result, in the order given, says whether
 * it `passed`.
 */
export async function runScenarios(scenarios, { specVersion, expected, concurrency = 3 }) {
  const failing = expectedFailures(expected);
  const queue = [...scenarios];
  const results = new Map();
  const worker = async () => {
    for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
      const result = await runScenario(scenario, { specVersion });
      // A scenario the suite skips also exits 0: only its verdict line counts.
      const passed = result.code === 0 && /OVERALL: PASSED/.test(result.output);
      results.set(scenario, { ...result, passed, expected: failing.includes(scenario) });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ordered = scenarios.map((scenario) => results.get(scenario));
  const surprises = ordered.filter((result) => result.passed === result.expected);
  return { code: surprises.length === 0 ? 0 : 1, results: ordered };
}

/** The 2026-07-28 auth scenarios at that revision, against expected-failures-2026-07-28.yml. */
export function runModernAuth({ concurrency = 3 } = {}) {
  return runScenarios(modernAuthScenarios(), {
    specVersion: MODERN_REVISION,
    expected: "expected-failures-2026-07-28.yml",
    concurrency,
  });
}

/**
 * The client scenarios 2025-11-25 scores, and json-schema-2020-12-preservation
 * (run, not yet scored), at that revision, against expected-failures.yml.
 */
export function runRequired({ concurrency = 3 } = {}) {
  return runScenarios([...requiredScenarios(), "json-schema-2020-12-preservation"], {
    specVersion: REVISION,
    expected: "expected-failures.yml",
    concurrency,
  });
}

/** One line per result, then each output. */
export function modernReport({ results }, revision = MODERN_REVISION) {
  return results
    .map((r) => {
      const verdict = r.passed ? "passed" : `FAILED (exit ${r.code})`;
      const note = r.expected ? (r.passed ? " — listed as expected to fail: remove it" : " (expected)") : "";
      return `\n=== ${revision} ${r.scenario}: ${verdict}${note}\n${r.output}`;
    })
    .join("");
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
  const auth = await runModernAuth();
  process.stdout.write(modernReport(auth));
  process.exit(modern.code || auth.code);
} else if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.length <= 2) {
  const required = await runRequired();
  process.stdout.write(modernReport(required, REVISION));
  const code = required.code;
  const modern = await runModern();
  process.stdout.write(modernReport(modern));
  const auth = await runModernAuth();
  process.stdout.write(modernReport(auth));
  process.exit(code || modern.code || auth.code);
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
