import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  fixtureArgs,
  fixtureServerPath,
  readPidFile,
  sigtermIgnoringServer,
  waitForProcessExit,
} from "@mcp-rt/testing";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  assertBuilt,
  createSandbox,
  hasScript,
  type LiveProcess,
  quote,
  runAgent,
  type Sandbox,
  startAgent,
  startInTerminal,
  stopAgent,
  waitForNoProcesses,
} from "./agent-process.js";

const CTRL_C = "\x03";
/** Writes a config file with one server `fx`: the fixture server with `flags`, its stderr appended to `log`. */
async function fixtureConfig(sandbox: Sandbox, flags: string[], log?: string): Promise<string> {
  const path = join(sandbox.root, "fixture.json");
  const program = [quote(process.execPath), quote(fixtureServerPath), ...flags.map(quote)].join(" ");
  const config = log
    ? { command: "/bin/sh", args: ["-c", `exec ${program} 2>>${quote(log)}`] }
    : { command: process.execPath, args: [fixtureServerPath, ...flags] };
  await writeFile(path, JSON.stringify({ mcpServers: { fx: config } }));
  return path;
}

describe("the interactive agent", () => {
  let sandbox: Sandbox;
  let agent: LiveProcess | undefined;

  beforeAll(() => assertBuilt());
  beforeEach(async () => {
    sandbox = await createSandbox();
  });
  afterEach(async () => {
    await stopAgent(agent);
    agent = undefined;
    expect(await waitForNoProcesses(sandbox.marker)).toEqual([]);
    await sandbox.cleanup();
  });

  it.skipIf(!hasScript)(
    "in a terminal: a tool call, Ctrl-C during trigger-long-running-operation, /mcp disable and enable, Ctrl-C twice exits and leaves no server",
    async () => {
      agent = startInTerminal(sandbox, []);
      await agent.waitFor(/tools available after \d+ ms[\s\S]*› /);
      expect(agent.output()).toContain("Connecting to MCP servers: everything, filesystem, memory, slow");
      // The server lines are drawn as "connecting…" and redrawn in place once each one is up.
      expect(agent.output()).toContain("◌ slow  connecting…");
      expect(agent.output()).toMatch(/✓ slow {2}\d+ ms · 3 tools/);

      let mark = agent.output().length;
      agent.write('/call mcp_everything_echo {"message":"in a terminal"}\r');
      await agent.waitFor(/Echo: in a terminal/, { from: mark });

      mark = agent.output().length;
      agent.write('/call mcp_everything_trigger_long_running_operation {"duration":30,"steps":30}\r');
      await agent.waitFor(/progress 1\/30/, { from: mark });
      const pressed = performance.now();
      agent.write(CTRL_C);
      await agent.waitFor(/Cancelled \(the server was told to stop\)/, { from: mark });
      expect(performance.now() - pressed).toBeLessThan(5000);
      expect(agent.output().slice(mark)).not.toContain("Long running operation completed");

      mark = agent.output().length;
      agent.write('/call mcp_everything_echo {"message":"still here"}\r');
      await agent.waitFor(/Echo: still here/, { from: mark });

      mark = agent.output().length;
      agent.write("/mcp disable memory\r");
      await agent.waitFor(/Disabled memory \(saved in ~\/\.mcp-rt\/mcp\.json\); stopped it/, { from: mark });
      agent.write("/mcp enable memory\r");
      // Back at once: connected, or (when the gate passed first) starting with its cached tools.
      await agent.waitFor(/(● memory: connected, \d+ tools|◌ memory: starting; 9 tools from the cache)/, {
        from: mark,
      });

      mark = agent.output().length;
      agent.write(CTRL_C);
      await agent.waitFor(/Ctrl-C again to exit/, { from: mark });
      agent.write(CTRL_C);
      expect(await agent.exited).toBe(0);
      expect(agent.output().slice(mark)).toContain("Disconnecting MCP servers");
    },
    60_000,
  );

  it.skipIf(!hasScript)(
    "Ctrl-C reaches the server: the fixture's slow tool logs its cancellation, then /quit exits",
    async () => {
      const log = join(sandbox.root, "fx-stderr.log");
      const config = await fixtureConfig(sandbox, fixtureArgs({ slowTool: true }), log);
      agent = startInTerminal(sandbox, ["--config", config, "--cache", "memory:"]);
      await agent.waitFor(/✓ fx[\s\S]*tools available after[\s\S]*› /);
      expect(agent.output()).not.toContain("everything");

      let mark = agent.output().length;
      agent.write('/call mcp_fx_slow {"ms":20000,"steps":20}\r');
      await agent.waitFor(/step 1 of 20/, { from: mark });
      agent.write(CTRL_C);
      await agent.waitFor(/Cancelled/, { from: mark });
      await expect
        .poll(() => readFile(log, "utf8").catch(() => ""), { timeout: 5000 })
        .toMatch(/slow cancelled after \d+ of 20 steps/);

      mark = agent.output().length;
      agent.write("/quit\r");
      expect(await agent.exited).toBe(0);
    },
    60_000,
  );

  it("Ctrl-C while servers start stops them and exits at once, before a slow server is up", async () => {
    const config = await fixtureConfig(sandbox, fixtureArgs({ initDelayMs: 20_000 }));
    agent = startAgent(sandbox, ["--config", config, "--cache", "memory:"]);
    await agent.waitFor(/Connecting to MCP servers: fx/);
    const pressed = performance.now();
    agent.child.kill("SIGINT");
    expect(await agent.exited).toBe(130);
    expect(performance.now() - pressed).toBeLessThan(5000);
    expect(agent.output()).toContain("Ctrl-C: stopping the servers");
    expect(agent.output()).not.toContain("› ");
  });

  it.each([
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)(
    "%s while a slow server starts: the agent stops its servers (grandchildren too) and exits with %i",
    async (signal, code) => {
      const pidFile = join(sandbox.root, "pids");
      // Slow to answer, deaf to SIGTERM and to its stdin closing, with a grandchild: only a group SIGKILL ends it.
      const server = sigtermIgnoringServer({ initDelayMs: 20_000, spawnGrandchild: true, pidFile });
      const config = join(sandbox.root, "slow.json");
      await writeFile(config, JSON.stringify({ mcpServers: { slow: server } }));
      agent = startAgent(sandbox, ["--config", config, "--cache", "memory:"]);
      await agent.waitFor(/Connecting to MCP servers: slow/);
      await expect.poll(() => readPidFile(pidFile).length, { timeout: 10_000 }).toBe(2);

      agent.child.kill(signal);

      expect(await agent.exited).toBe(code);
      for (const pid of readPidFile(pidFile)) expect(await waitForProcessExit(pid, 5000)).toBe(true);
    },
  );

  it("stops its servers and exits as SIGPIPE would when the reader of its output goes away", async () => {
    const config = await fixtureConfig(sandbox, []);
    agent = startAgent(sandbox, ["--config", config, "--cache", "memory:"]);
    await agent.waitFor(/tools available after \d+ ms/);
    const printed = agent.output();
    // `mcp-rt-agent … | head -1`: the pipe's reader is gone, the next line the agent prints fails.
    agent.child.stdout?.destroy();
    agent.write("/tools\n");
    expect(await agent.exited).toBe(141);
    expect(agent.output().slice(printed.length)).not.toMatch(/EPIPE|Unhandled/);
  });

  it("reads lines from a pipe: runs them in order, /quit stops, and EOF alone exits cleanly", async () => {
    const config = await fixtureConfig(sandbox, []);
    const args = ["--config", config, "--cache", "memory:"];
    const piped = await runAgent(args, sandbox, {
      stdin: '/tools\n/call mcp_fx_echo {"message":"piped"}\n/quit\n/call mcp_fx_echo {"message":"never"}\n',
    });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain("mcp_fx_echo");
    expect(piped.stdout).toMatch(/← mcp_fx_echo \(\d+ ms\)\npiped/);
    expect(piped.stdout).not.toContain("never");
    expect(piped.stdout).not.toContain("› ");

    const eof = await runAgent(args, sandbox, { stdin: "" });
    expect(eof.code).toBe(0);
    expect(eof.stdout).toContain("Disconnecting MCP servers");
  });
});
