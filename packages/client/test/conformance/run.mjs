// Runs the MCP conformance suite's client scenarios against client.mjs and
// exits non-zero if any fails: `pnpm --filter @mcp-rt/client conformance`
// (build first: client.mjs imports the built package). Scenario names may be
// given as arguments; the default is the set this package promises to pass.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The scenarios CI runs. */
export const SCENARIOS = ["initialize", "tools_call", "sse-retry"];

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, "..", "..");
const conformanceBin = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json")),
  "dist/index.js",
);

/** Runs one scenario; resolves with its exit code and everything it printed. */
export function runScenario(scenario, { timeoutMs = 60_000 } = {}) {
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
      "--scenario",
      scenario,
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
      resolve({ scenario, code: code ?? (signal ? 128 : 1), output });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const scenarios = process.argv.length > 2 ? process.argv.slice(2) : SCENARIOS;
  let failures = 0;
  for (const scenario of scenarios) {
    const { code, output } = await runScenario(scenario);
    process.stdout.write(`\n=== ${scenario}: ${code === 0 ? "passed" : `FAILED (exit ${code})`}\n${output}`);
    if (code !== 0) failures++;
  }
  console.log(`\nconformance: ${scenarios.length - failures} passed, ${failures} failed`);
  process.exit(failures === 0 ? 0 : 1);
}
