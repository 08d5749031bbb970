import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { echoServer, slowInitServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { runAgent, useSandbox } from "./agent-process.js";

describe("a server slower than the startup wait", () => {
  const sandbox = useSandbox();

  it("costs the wait once: the next run does not wait for it, and says why", async () => {
    const config = join(sandbox().root, "slow.json");
    // Far slower than the session's 5 s wait, so that neither run sees it come up.
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { slow: slowInitServer(20_000), fast: echoServer() } }),
    );
    const args = ["--config", config, "--no-project-config", "--exec", "/mcp list"];

    const first = await runAgent(args, sandbox(), { timeoutMs: 40_000 });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      "◌ slow  not waited for: did not come up within 5000 ms; its tools follow when it is up",
    );
    const waited = Number(/tools available after (\d+) ms/.exec(first.stdout)?.[1]);
    expect(waited).toBeGreaterThanOrEqual(5000);

    const second = await runAgent(args, sandbox(), { timeoutMs: 40_000 });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(
      "◌ slow  not waited for: did not come up within 5000 ms at the last start; its tools follow when it is up",
    );
    expect(second.stdout).toMatch(
      /◌ slow +connecting · 0 tools · not waited for: did not come up within 5000 ms at the last start/,
    );
    // Generous: the run still starts `fast` (cached by the first run) and lists it; it never waits 5 s.
    expect(Number(/tools available after (\d+) ms/.exec(second.stdout)?.[1])).toBeLessThan(4000);
  }, 60_000);
});
