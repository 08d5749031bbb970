import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { checkNoPortsLeftAfterFile } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const runner = fileURLToPath(new URL("./conformance/run.mjs", import.meta.url));

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
  runRequired(options?: { concurrency?: number }): Promise<{ code: number; results: ModernResult[] }>;
  runModernAuth(options?: { concurrency?: number }): Promise<{ code: number; results: ModernResult[] }>;
  modernAuthScenarios(): string[];
  expectedFailures(file: string): string[];
  MODERN_SCENARIOS: string[];
};
const { requiredScenarios, runModern, MODERN_SCENARIOS } = runnerModule;
const required = requiredScenarios();
const expectedFailures = runnerModule.expectedFailures("expected-failures.yml");
const modernExpectedFailures = runnerModule.expectedFailures("expected-failures-2026-07-28.yml");

describe("the MCP conformance suite (@modelcontextprotocol/conformance client scenarios)", () => {
  let run: { code: number; results: ModernResult[] };
  const output = (scenario: string): string =>
    run.results.find((result) => result.scenario === scenario)?.output ?? `${scenario} did not run`;

  beforeAll(async () => {
    expect(existsSync(new URL("../dist/index.js", import.meta.url)), "build @mcp-rt/client first").toBe(true);
    // Three at a time: the suite's own --requirements run starts them all at once, and times out under load.
    run = await runnerModule.runRequired({ concurrency: 3 });
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
    expect(run.results.map((result) => result.scenario)).toEqual([
      ...required,
      "json-schema-2020-12-preservation",
    ]);
  });

  it.each(required.filter((scenario) => !expectedFailures.includes(scenario)))("passes %s", (scenario) => {
    const result = run.results.find((one) => one.scenario === scenario);
    expect(result?.passed, output(scenario)).toBe(true);
    expect(result?.output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
  });

  it("fails no scenario: expected-failures.yml lists none, elicitation defaults included", () => {
    expect(expectedFailures).toEqual([]);
    expect(required).toContain("elicitation-sep1034-client-defaults");
    expect(output("elicitation-sep1034-client-defaults")).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    expect(run.code, run.results.map((result) => result.output).join("\n")).toBe(0);
  });

  it("also keeps JSON Schema 2020-12 keywords intact (run, not yet scored, for 2025-11-25)", () => {
    expect(output("json-schema-2020-12-preservation")).toMatch(/Passed: (\d+)\/\1, 0 failed/);
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

describe("the auth scenarios of the conformance suite at 2026-07-28 (iss, metadata issuer, CIMD, migration…)", () => {
  const scenarios = runnerModule.modernAuthScenarios();
  let auth: { code: number; results: ModernResult[] };

  beforeAll(async () => {
    expect(existsSync(new URL("../dist/index.js", import.meta.url)), "build @mcp-rt/client first").toBe(true);
    auth = await runnerModule.runModernAuth({ concurrency: 3 });
  }, 300_000);

  it("runs every auth client scenario 2026-07-28 scores, the RFC 9207 and RFC 8414 issuer checks among them", () => {
    expect(scenarios).toEqual(
      expect.arrayContaining([
        "auth/basic-cimd",
        "auth/pre-registration",
        "auth/offline-access-scope",
        "auth/authorization-server-migration",
        "auth/iss-supported",
        "auth/iss-not-advertised",
        "auth/iss-supported-missing",
        "auth/iss-wrong-issuer",
        "auth/iss-unexpected",
        "auth/iss-normalized",
        "auth/metadata-issuer-mismatch",
      ]),
    );
    expect(scenarios).toHaveLength(25);
    expect(auth.results.map((result) => result.scenario)).toEqual(scenarios);
  });

  it.each(scenarios.filter((scenario) => !modernExpectedFailures.includes(scenario)))(
    "passes %s at 2026-07-28",
    (scenario) => {
      const result = auth.results.find((one) => one.scenario === scenario);
      expect(result?.passed, result?.output).toBe(true);
      expect(result?.output).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    },
  );

  it("fails no auth scenario beyond those expected-failures-2026-07-28.yml lists, each with its reason", () => {
    expect(auth.code, auth.results.map((result) => result.output).join("\n")).toBe(0);
  });
});
