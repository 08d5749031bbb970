import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { readPidFile, sigtermIgnoringServer, waitForProcessExit } from "@mcp-rt/testing";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  agentBin,
  assertBuilt,
  createSandbox,
  type LiveProcess,
  liveProcess,
  type Sandbox,
  waitForNoProcesses,
} from "./agent-process.js";

describe("signals", () => {
  let sandbox: Sandbox;
  let agent: LiveProcess | undefined;

  beforeAll(() => assertBuilt());
  beforeEach(async () => {
    sandbox = await createSandbox();
  });
  afterEach(async () => {
    agent?.child.kill("SIGKILL");
    agent = undefined;
    expect(await waitForNoProcesses(sandbox.marker, 10_000)).toEqual([]);
    await sandbox.cleanup();
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
      agent = liveProcess(
        spawn(
          process.execPath,
          [agentBin, "--cwd", sandbox.project, "--config", config, "--cache", "memory:"],
          {
            env: sandbox.env,
            stdio: ["pipe", "pipe", "pipe"],
          },
        ),
      );
      await agent.waitFor(/Connecting to MCP servers: slow/);
      await expect.poll(() => readPidFile(pidFile).length, { timeout: 10_000 }).toBe(2);

      agent.child.kill(signal);

      expect(await agent.exited).toBe(code);
      for (const pid of readPidFile(pidFile)) expect(await waitForProcessExit(pid, 5000)).toBe(true);
    },
  );
});
