import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkNoPortsLeftAfterFile } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const runner = fileURLToPath(new URL("./conformance/run.mjs", import.meta.url));

/** Runs `node test/conformance/run.mjs <scenario>`: the suite against the built client, all on localhost. */
function runConformance(scenario: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [runner, scenario], {
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

describe("the MCP conformance suite (@modelcontextprotocol/conformance client scenarios)", () => {
  it("runs against the built package", () => {
    expect(existsSync(new URL("../dist/index.js", import.meta.url)), "build @mcp-rt/client first").toBe(true);
  });

  it.each(["initialize", "tools_call", "sse-retry"])(
    "passes %s",
    async (scenario) => {
      const { code, output } = await runConformance(scenario);
      expect(output, output).toContain("OVERALL: PASSED");
      expect(output).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
      expect(code, output).toBe(0);
    },
    90_000,
  );

  it("fails a scenario the client does not implement, so a regression cannot pass unseen", async () => {
    // The client declares no elicitation capability, so this scenario's checks fail.
    const { code, output } = await runConformance("elicitation-sep1034-client-defaults");
    expect(output).toContain("OVERALL: FAILED");
    expect(output).toContain("conformance: 0 passed, 1 failed");
    expect(code).toBe(1);
  }, 90_000);
});
