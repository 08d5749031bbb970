import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fixtureServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { runAgent, useSandbox } from "./agent-process.js";

// What the fixture's `huge` tool returns: this pattern, repeated and cut to length.
const PATTERN = "abcdefghijklmnopqrstuvwxyz0123456789";

describe("a megabyte of text through the example agent", () => {
  const sandbox = useSandbox();

  it("shows its head and tail, reads the rest with mcp_read_result, and leaves no file", async () => {
    const config = join(sandbox().root, "big.json");
    await writeFile(config, JSON.stringify({ mcpServers: { big: fixtureServer({ hugeTool: true }) } }));
    const commands = [
      '/call mcp_big_huge {"bytes":1000000}',
      '/call mcp_read_result {"id":"result-1","offset":500000,"limit":72}',
    ];
    const run = await runAgent(
      ["--config", config, "--cache", "memory:", ...commands.flatMap((line) => ["--exec", line])],
      sandbox(),
    );
    expect(run.stdout).toContain("[mcp-rt: this result has 1000000 characters, too many to show here");
    expect(run.stdout.length).toBeLessThan(20_000);
    const page = PATTERN.repeat(30_000).slice(500_000, 500_072);
    expect(run.stdout).toContain(`${page}\n[characters 500000 to 500072 of 1000000; next:`);
    // The session's folder went with the session (its parent is in the run's TMPDIR).
    const parents = await readdir(join(sandbox().root, "tmp"));
    const parent = parents.find((name) => name.startsWith("mcp-rt-results-"));
    expect(parent).toBeDefined();
    expect(await readdir(join(sandbox().root, "tmp", parent!))).toEqual([]);
  });
});
