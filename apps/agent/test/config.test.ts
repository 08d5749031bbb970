import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { echoServer, fixtureServerPath } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { runAgent, useSandbox } from "./agent-process.js";

describe("where the agent's servers come from", () => {
  const sandbox = useSandbox();

  it("a project's .mcp.json waits for approval; --trust-project approves it, and the approval is remembered", async () => {
    await writeFile(
      join(sandbox().project, ".mcp.json"),
      JSON.stringify({ mcpServers: { proj: echoServer() } }),
    );

    const waiting = await runAgent(["--cache", "memory:", "--exec", "/mcp list"], sandbox());
    expect(waiting.code).toBe(0);
    expect(waiting.stdout).not.toContain("embedded demo");
    expect(waiting.stdout).toContain("? proj  needs approval: review it, then /mcp trust");
    expect(waiting.stdout).toMatch(/\? proj +needs approval/);

    const trusted = await runAgent(
      ["--cache", "memory:", "--trust-project", "--exec", '/call mcp_proj_echo {"message":"trusted"}'],
      sandbox(),
    );
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toMatch(/✓ proj {2}\d+ ms · 1 tool\b/);
    expect(trusted.stdout).toMatch(/← mcp_proj_echo \(\d+ ms\)\ntrusted/);

    const again = await runAgent(["--cache", "memory:", "--exec", "/mcp list"], sandbox());
    expect(again.stdout).toMatch(/● proj +connected/);
  });

  it("the Antigravity CLI's ~/.gemini/config/mcp_config.json, written as its documentation shows it", async () => {
    const { command, args } = echoServer();
    const file = join(sandbox().home, ".gemini", "config", "mcp_config.json");
    await mkdir(dirname(file), { recursive: true });
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: {
          agy: { command, args, env: { MODE: "server" } },
          resting: { command, args, disabled: true },
        },
      }),
    );
    const run = await runAgent(
      ["--cache", "memory:", "--exec", '/call mcp_agy_echo {"message":"from agy"}', "--exec", "/mcp list"],
      sandbox(),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/← mcp_agy_echo \(\d+ ms\)\nfrom agy/);
    expect(run.stdout).toMatch(
      /Antigravity · ~\/\.gemini\/config\/mcp_config\.json \(user\)\n {2}● agy +connected/,
    );
    expect(run.stdout).toMatch(/– resting +disabled/);
  });

  it("--config adds a file of its own; --no-project-config leaves the project's files unread", async () => {
    await writeFile(
      join(sandbox().project, ".mcp.json"),
      JSON.stringify({ mcpServers: { proj: echoServer() } }),
    );
    const config = join(sandbox().root, "extra.json");
    await writeFile(config, JSON.stringify({ mcpServers: { extra: echoServer() } }));
    const run = await runAgent(
      ["--config", config, "--no-project-config", "--cache", "memory:", "--exec", "/mcp list"],
      sandbox(),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Connecting to MCP servers: extra\n");
    expect(run.stdout).toMatch(/--config · .*extra\.json \(user\)\n {2}● extra +connected/);
    expect(run.stdout).not.toContain("proj");
  });

  it("a server that cannot start gets a ✗ line saying why and what to do; a broken file is named; the rest go on", async () => {
    const config = join(sandbox().root, "mixed.json");
    await writeFile(
      config,
      JSON.stringify({
        mcpServers: {
          good: echoServer(),
          // A plain env value is no secret: the message keeps the word (issue 29, part 4).
          broken: { command: join(sandbox().root, "no-such-program"), env: { MODE: "server" } },
          crashing: { command: process.execPath, args: [fixtureServerPath, "--exit-code=3"] },
        },
      }),
    );
    await writeFile(join(sandbox().home, ".claude.json"), "{ not json");
    const run = await runAgent(
      ["--config", config, "--cache", "memory:", "--exec", '/call mcp_good_echo {"message":"fine"}'],
      sandbox(),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /✗ broken: .*no-such-program.* — fix it, then \/mcp reload; \/mcp disable broken silences it/,
    );
    expect(run.stdout).toMatch(/✗ broken: .*MCP server "broken"/);
    expect(run.stdout).not.toContain("***");
    expect(run.stdout).toMatch(/✗ crashing: .*— fix it/);
    expect(run.stdout).toMatch(/✗ .*\.claude\.json/);
    expect(run.stdout).toMatch(/← mcp_good_echo \(\d+ ms\)\nfine/);
  });

  it("an admin policy: what it forbids never starts, whoever's file names it, and the agent says whose rule in which file", async () => {
    const fixture = echoServer();
    await writeFile(
      join(sandbox().home, ".claude.json"),
      JSON.stringify({ mcpServers: { allowed: fixture, "by-name": echoServer({ tools: 1 }) } }),
    );
    await mkdir(join(sandbox().home, ".cursor"), { recursive: true });
    await writeFile(
      join(sandbox().home, ".cursor", "mcp.json"),
      JSON.stringify({ mcpServers: { "by-command": echoServer({ tools: 2 }) } }),
    );
    await writeFile(
      join(sandbox().project, ".mcp.json"),
      JSON.stringify({ mcpServers: { remote: { type: "http", url: "https://mcp.untrusted.example/mcp" } } }),
    );
    const policy = join(sandbox().root, "admin", "policy.json");
    await mkdir(dirname(policy), { recursive: true });
    await writeFile(
      policy,
      JSON.stringify({
        allowedMcpServers: [{ serverCommand: [fixture.command, ...(fixture.args ?? [])] }],
        deniedMcpServers: [{ serverName: "by-name" }],
      }),
    );
    const run = await runAgent(
      ["--cache", "memory:", "--trust-project", "--exec", "/mcp list", "--exec", "/mcp explain remote"],
      sandbox(),
      { env: { MCP_RT_POLICY: policy } },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("embedded demo");
    expect(run.stdout).toContain("Connecting to MCP servers: allowed\n");
    expect(run.stdout).toContain(
      `⛔ by-name  not started: forbidden by mcp-rt's policy (${policy}): deniedMcpServers: { "serverName": "by-name" }`,
    );
    expect(run.stdout).toContain(
      `⛔ by-command  not started: forbidden by mcp-rt's policy (${policy}): allowedMcpServers: no serverCommand entry is its exact command and arguments`,
    );
    expect(run.stdout).toMatch(/⛔ remote +blocked · blocked by mcp-rt's policy/);
    expect(run.stdout).toContain(
      `why: forbidden by mcp-rt's policy (${policy}): allowedMcpServers: no serverName entry is "remote" (and none gives a serverUrl)`,
    );
    expect(run.stdout).toMatch(/● allowed +connected/);

    // Everything forbidden is still something found: no demo stands in for it.
    await writeFile(policy, JSON.stringify({ allowedMcpServers: [] }));
    const none = await runAgent(["--cache", "memory:", "--exec", "/mcp list"], sandbox(), {
      env: { MCP_RT_POLICY: policy },
    });
    expect(none.code).toBe(0);
    expect(none.stdout).not.toContain("embedded demo");
    expect(none.stdout).toContain("No MCP servers to connect.");
    expect(none.stdout).toContain("⛔ allowed  not started: forbidden by mcp-rt's policy");
  });

  it("bad command lines exit 2 with a message and start nothing", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["--bogus"], /Unknown option '--bogus'/],
      [["--model", "gpt"], /--model must be one of offline, openai, got "gpt"/],
      [
        ["--tool-search", "sometimes"],
        /--tool-search must be on, off or a number of tokens, got "sometimes"/,
      ],
      [["--config", join(sandbox().root, "missing.json")], /--config .*missing\.json: no such file/],
      [["--cwd", join(sandbox().root, "nowhere")], /--cwd .*nowhere is not a folder/],
      [["stray"], /Unexpected argument 'stray'/],
      [["--cache", "ftp://cache.test"], /--cache: Unsupported cache URL "ftp:\/\/cache\.test"/],
      [["--health-check", "soon"], /--health-check needs a whole number of milliseconds above 0, got "soon"/],
    ];
    for (const [args, message] of cases) {
      const run = await runAgent(args, sandbox());
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toContain("mcp-rt-agent --help");
      expect(run.stdout).toBe("");
    }
    const help = await runAgent(["--help"], sandbox());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: mcp-rt-agent [options]");
    expect(help.stdout).toContain("/call <tool> [json]");
    // Nine agent starts: on a busy 2-core machine each can take seconds.
  }, 90_000);
});
