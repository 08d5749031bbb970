import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { checkNoPortsLeftAfterFile } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const runner = fileURLToPath(new URL("./conformance/run.mjs", import.meta.url));

/** Runs `node test/conformance/run.mjs [scenario…]`: the suite against the built client, all on localhost. */
function runConformance(...scenarios: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [runner, ...scenarios], {
    cwd: packageDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}

interface ModernResult {
  scenario: string;
  code: number;
  output: string;
  passed: boolean;
  expected: boolean;
}
const runnerModule = (await import(runner)) as {
  requiredScenarios(): string[];
  runModern(): Promise<{ code: number; results: ModernResult[] }>;
  expectedFailures(file: string): string[];
  MODERN_SCENARIOS: string[];
};
const { requiredScenarios, runModern, MODERN_SCENARIOS } = runnerModule;
const required = requiredScenarios();
const expectedFailures = runnerModule.expectedFailures("expected-failures.yml");
const modernExpectedFailures = runnerModule.expectedFailures("expected-failures-2026-07-28.yml");

describe("the MCP conformance suite (@modelcontextprotocol/conformance client scenarios)", () => {
  let run: { code: number | null; output: string };

  beforeAll(async () => {
    expect(existsSync(new URL("../dist/index.js", import.meta.url)), "build @mcp-rt/client first").toBe(true);
    run = await runConformance();
  }, 300_000);

  it("runs every client scenario the 2025-11-25 revision scores, the auth scenarios among them", () => {
    expect(required).toEqual(
      expect.arrayContaining([
        "initialize",
        "tools_call",
        "sse-retry",
        "auth/basic-cimd",
        "auth/pre-registration",
      ]),
    );
    expect(required.filter((scenario) => scenario.startsWith("auth/")).length).toBeGreaterThanOrEqual(14);
  });

  it.each(required.filter((scenario) => !expectedFailures.includes(scenario)))("passes %s", (scenario) => {
    expect(run.output, run.output).toMatch(
      new RegExp(`✓ ${scenario.replace(/[/.]/g, "\\$&")}: \\d+ passed, 0 failed`),
    );
  });

  it("fails no scenario: expected-failures.yml lists none, elicitation defaults included", () => {
    expect(expectedFailures).toEqual([]);
    expect(required).toContain("elicitation-sep1034-client-defaults");
    expect(run.output).toMatch(/✓ elicitation-sep1034-client-defaults: \d+ passed, 0 failed/);
    expect(run.code, run.output).toBe(0);
  });

  it("also keeps JSON Schema 2020-12 keywords intact (run, not yet scored, for 2025-11-25)", () => {
    expect(run.output).toMatch(/✓ json-schema-2020-12-preservation: \d+ passed, 0 failed/);
  });
});

describe("the MCP conformance suite at 2026-07-28 (modern-only servers, reached through protocol: auto)", () => {
  let modern: { code: number; results: ModernResult[] };

  beforeAll(async () => {
    expect(existsSync(new URL("../dist/index.js", import.meta.url)), "build @mcp-rt/client first").toBe(true);
    modern = await runModern();
  }, 300_000);

  it("runs the six scenarios issue 31 names, and input_required's requestState (issue 32)", () => {
    expect(MODERN_SCENARIOS).toEqual([
      "tools_call",
      "request-metadata",
      "http-standard-headers",
      "http-custom-headers",
      "http-invalid-tool-headers",
      "json-schema-ref-no-deref",
      "sep-2322-client-request-state",
    ]);
    expect(modern.results.map((result) => result.scenario)).toEqual(MODERN_SCENARIOS);
  });

  it.each(MODERN_SCENARIOS.filter((scenario) => !modernExpectedFailures.includes(scenario)))(
    "passes %s at 2026-07-28",
    (scenario) => {
      const result = modern.results.find((one) => one.scenario === scenario);
      expect(result?.passed, result?.output).toBe(true);
      // Run, not skipped; client.mjs fails unless the connection agreed the revision asked for.
      expect(result?.output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    },
  );

  it("fails no scenario: expected-failures-2026-07-28.yml lists none", () => {
    expect(modernExpectedFailures).toEqual([]);
    expect(modern.code, modern.results.map((result) => result.output).join("\n")).toBe(0);
  });
});
