import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { slowInitServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { runAgent, useSandbox } from "./agent-process.js";

describe("/call", () => {
  const sandbox = useSandbox();

  it("waits for a server still connecting when its tool is not there yet, then calls it", async () => {
    // Slower than the session's 5 s bound on the start's wait: the tools are handed over without it.
    const config = join(sandbox().root, "slow.json");
    await writeFile(config, JSON.stringify({ mcpServers: { late: slowInitServer(6500) } }));
    const run = await runAgent(
      [
        "--config",
        config,
        "--cache",
        "memory:",
        "--exec",
        '/call mcp_late_echo {"message":"worth the wait"}',
      ],
      sandbox(),
    );
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/tools available after \d+ ms \(0 tools from 0 servers\)/);
    expect(run.stdout).toContain("… mcp_late_echo: waiting for late to connect");
    expect(run.stdout).toMatch(/← mcp_late_echo \(\d+ ms\)\nworth the wait/);
  }, 30_000);
});
