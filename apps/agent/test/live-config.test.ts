import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { echoServer } from "@mcp-rt/testing";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  agentBin,
  assertBuilt,
  createSandbox,
  type LiveProcess,
  liveProcess,
  type Sandbox,
  stopAgent,
  waitForNoProcesses,
} from "./agent-process.js";

describe("the agent follows edits of the config files", () => {
  let sandbox: Sandbox;
  let agent: LiveProcess | undefined;
  let file: string;

  beforeAll(() => assertBuilt());
  beforeEach(async () => {
    sandbox = await createSandbox();
    file = join(sandbox.home, ".mcp-rt", "mcp.json");
    await mkdir(join(sandbox.home, ".mcp-rt"));
  });
  afterEach(async () => {
    await stopAgent(agent);
    agent = undefined;
    expect(await waitForNoProcesses(sandbox.marker)).toEqual([]);
    await sandbox.cleanup();
  });

  const writeServers = (servers: Record<string, unknown>) =>
    writeFile(file, JSON.stringify({ mcpServers: servers }, null, 2));

  /** The agent reading lines from a pipe that stays open. */
  function start(args: string[]): LiveProcess {
    const child = spawn(
      process.execPath,
      [agentBin, "--cwd", sandbox.project, "--cache", "memory:", ...args],
      {
        env: sandbox.env,
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    return liveProcess(child);
  }

  it("prints one line per changed server, and leaves the others running", async () => {
    await writeServers({ github: echoServer(), old: echoServer(), keep: echoServer() });
    agent = start([]);
    await agent.waitFor(/tools available after \d+ ms/);
    const mark = agent.output().length;
    await writeServers({ github: echoServer({ tools: 1 }), keep: echoServer(), linear: echoServer() });
    await agent.waitFor(/↻ github restarted \(config changed\)/, { from: mark });
    await agent.waitFor(/\+ linear started/, { from: mark });
    await agent.waitFor(/− old removed/, { from: mark });
    await agent.waitFor(/✓ linear is up/, { from: mark });
    // github runs other arguments than when its tools were approved: they are held, and the user is asked.
    await agent.waitFor(/MCP server "github": 2 tools held until you approve/, { from: mark });
    expect(agent.output().slice(mark)).not.toMatch(/[↻+−] keep\b/);
    agent.write("/quit\n");
    expect(await agent.exited).toBe(0);
  });

  it("--no-watch leaves the edit for /mcp reload", async () => {
    await writeServers({ github: echoServer(), keep: echoServer() });
    agent = start(["--no-watch"]);
    await agent.waitFor(/tools available after \d+ ms/);
    const mark = agent.output().length;
    await writeServers({ github: echoServer({ tools: 1 }), keep: echoServer() });
    agent.write("/mcp reload\n");
    await agent.waitFor(/Reloaded MCP in \d+ ms: restarted github; 1 unchanged\./, { from: mark });
    expect(agent.output()).not.toContain("↻");
    agent.write("/quit\n");
    expect(await agent.exited).toBe(0);
  });
});
