import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertBuilt,
  createSandbox,
  runAgent,
  type Sandbox,
  toolsAvailableMs,
  waitForNoProcesses,
} from "./agent-process.js";

// One sandbox for the file: the first start fills its cache, the second reads it.
describe("the embedded demo, through the built bin", () => {
  let sandbox: Sandbox;
  let firstMs = 0;

  beforeAll(async () => {
    assertBuilt();
    sandbox = await createSandbox();
  });
  afterAll(async () => {
    expect(await waitForNoProcesses(sandbox.marker)).toEqual([]);
    await sandbox.cleanup();
  });

  it("first start: with no config anywhere it runs the demo, /mcp list shows every server connected, /call echo answers", async () => {
    const run = await runAgent(
      ["--exec", "/mcp list", "--exec", '/call mcp_everything_echo {"message":"hello from the test"}'],
      sandbox,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toContain("model: offline");
    expect(out).toContain("No MCP config found");
    expect(out).toContain("Connecting to MCP servers: everything, filesystem, memory, slow");
    // No cache yet: the slow server (1.5 s to initialize) is waited for, so every line is a ✓.
    for (const name of ["everything", "filesystem", "memory", "slow"]) {
      expect(out).toMatch(new RegExp(`✓ ${name}  \\d+ ms · \\d+ tools`));
      expect(out).toMatch(new RegExp(`● ${name} +connected · \\d+ tools`));
    }
    expect(out).toContain("Embedded demo");
    expect(out).toContain("→ mcp_everything_echo");
    expect(out).toContain("Echo: hello from the test");
    firstMs = toolsAvailableMs(out);
    expect(firstMs).toBeGreaterThanOrEqual(1500);
    expect(await waitForNoProcesses(sandbox.marker)).toEqual([]);
  });

  it("second start: the slow server's tools come deferred from the cache, sooner, and work once it is up", async () => {
    expect(firstMs).toBeGreaterThan(0);
    const run = await runAgent(
      [
        "--exec",
        "/tools slow",
        "--exec",
        '/call mcp_slow_echo {"message":"from a deferred tool"}',
        "--exec",
        "/tools search repeat back my words",
        "--exec",
        "/tools --cost",
      ],
      sandbox,
    );
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/◌ slow {2}deferred: 3 tools from the cache/);
    expect(out).toMatch(/mcp_slow_echo \(deferred/);
    expect(out).toMatch(/← mcp_slow_echo \(\d+ ms\)\nfrom a deferred tool/);
    expect(toolsAvailableMs(out)).toBeLessThan(firstMs);
    // What mcp_tool_search would answer, and what the tools cost (the demo stays under the 10k threshold).
    expect(out).toContain('mcp_tool_search {"query":"repeat back my words"} answers:\n');
    expect(out).toMatch(/^- mcp_everything_echo \(everything\) — Echo Tool: Echoes back the input string$/m);
    expect(out).toContain("(tool search off (auto: on above ~10k tokens): the model gets every tool now.)");
    expect(out).toMatch(/\d+ tools, ~\d\.\dk tokens of definitions; the most expensive:\n +~\d+ {2}mcp_/);
    expect(await waitForNoProcesses(sandbox.marker)).toEqual([]);
  });

  it("--json prints one object per line: status events, the tool list and the tool result", async () => {
    const run = await runAgent(
      ["--json", "--exec", "/tools echo", "--exec", '/call mcp_everything_echo {"message":"json"}'],
      sandbox,
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const ready = events.find((event) => event.type === "status" && event.event === "ready");
    expect(((ready?.servers ?? []) as Array<{ name: string }>).map((server) => server.name).sort()).toEqual([
      "everything",
      "filesystem",
      "memory",
      "slow",
    ]);
    const tools = events.find((event) => event.type === "result" && event.command === "tools");
    expect(((tools?.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name)).toContain(
      "mcp_everything_echo",
    );
    const result = events.find((event) => event.type === "tool-result");
    expect(result).toMatchObject({
      tool: "mcp_everything_echo",
      isError: false,
      content: [{ type: "text", text: "Echo: json" }],
    });
  });

  it("bad lines fail with a message and exit code 1; the lines after them still run", async () => {
    const run = await runAgent(
      [
        "--exec",
        "/nope",
        "--exec",
        "/call mcp_everything_ech {}",
        "--exec",
        "/call mcp_everything_echo {not json",
        "--exec",
        "/call mcp_everything_echo [1]",
        "--exec",
        '/call everything/echo {"message":"by label"}',
      ],
      sandbox,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Unknown command /nope; /help lists the commands.");
    expect(run.stdout).toContain('No tool named "mcp_everything_ech". Did you mean mcp_everything_echo');
    expect(run.stdout).toContain("The arguments are not valid JSON");
    expect(run.stdout).toContain("The arguments must be a JSON object");
    expect(run.stdout).toContain("Echo: by label");
  });
});
