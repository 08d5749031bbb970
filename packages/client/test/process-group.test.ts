import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readlinkSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { callTool, closeConnection, connectToServer } from "@mcp-rt/client";
import type { MCPStdioServerConfig } from "@mcp-rt/config";
import {
  crashOnCallServer,
  echoServer,
  grandchildServer,
  isProcessAlive,
  readPidFileEntries,
  sigtermIgnoringServer,
  waitForProcessExit,
} from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { useTempDir } from "./helpers.js";
import { checkNoProcessesLeftAfterFile, leftoverProcesses } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const posix = process.platform !== "win32";
const dir = useTempDir("mcp-rt-client-");

/** Runs a fixture config through `sh -c '<node> <fixture…>; :'`, so the shell stays as the fixture's parent. */
function throughShell(config: MCPStdioServerConfig): MCPStdioServerConfig {
  const quoted = [config.command, ...(config.args ?? [])].map((part) => `'${part.replaceAll("'", `'\\''`)}'`);
  return { command: "sh", args: ["-c", `${quoted.join(" ")}; echo "wrapper done" >&2`] };
}

function pidsOf(pidFile: string): { servers: number[]; grandchildren: number[] } {
  const entries = readPidFileEntries(pidFile);
  return {
    servers: entries.filter((e) => e.role === "server").map((e) => e.pid),
    grandchildren: entries.filter((e) => e.role === "grandchild").map((e) => e.pid),
  };
}

describe.skipIf(!posix)("process groups", () => {
  it("runs the server in a process group of its own", async () => {
    const connection = await connectToServer({ name: "echo", config: echoServer() });
    try {
      expect(connection.pid).toBeGreaterThan(0);
      // -pid signals the group the server leads; it fails if there is no such group.
      expect(() => process.kill(-connection.pid!, 0)).not.toThrow();
    } finally {
      await closeConnection(connection);
    }
  });

  it("leaves nothing behind after closing a server that spawned a grandchild", async () => {
    const pidFile = join(dir(), "pids");
    const connection = await connectToServer({ name: "gc", config: grandchildServer(pidFile) });
    const { servers, grandchildren } = pidsOf(pidFile);
    expect(servers).toHaveLength(1);
    expect(grandchildren).toHaveLength(1);
    expect(isProcessAlive(grandchildren[0]!)).toBe(true);

    await closeConnection(connection);

    for (const pid of [...servers, ...grandchildren]) expect(isProcessAlive(pid)).toBe(false);
    expect(leftoverProcesses(undefined)).toEqual([]);
  });

  it("leaves nothing behind after closing a server started through a shell wrapper", async () => {
    const pidFile = join(dir(), "pids");
    const connection = await connectToServer({
      name: "wrapped",
      config: throughShell(grandchildServer(pidFile)),
    });
    const shellPid = connection.pid!;
    const { servers, grandchildren } = pidsOf(pidFile);
    expect(servers[0]).not.toBe(shellPid);
    expect(grandchildren).toHaveLength(1);

    await closeConnection(connection);

    for (const pid of [shellPid, ...servers, ...grandchildren]) expect(isProcessAlive(pid)).toBe(false);
  });

  it("kills a wrapped server that ignores SIGTERM, and its grandchild", async () => {
    const pidFile = join(dir(), "pids");
    const connection = await connectToServer({
      name: "stubborn",
      config: throughShell(sigtermIgnoringServer({ spawnGrandchild: true, pidFile })),
      stdinGraceMs: 100,
      killGraceMs: 300,
    });
    const { servers, grandchildren } = pidsOf(pidFile);
    const started = Date.now();

    await closeConnection(connection);

    expect(Date.now() - started).toBeLessThan(3000);
    for (const pid of [connection.pid!, ...servers, ...grandchildren])
      expect(isProcessAlive(pid)).toBe(false);
    // SIGTERM came first (and was ignored), then SIGKILL.
    expect(connection.stderrTail()).toContain("ignoring SIGTERM");
  });

  it("kills a server that ignores SIGTERM after the kill grace period", async () => {
    const connection = await connectToServer({
      name: "stubborn",
      config: sigtermIgnoringServer(),
      stdinGraceMs: 100,
      killGraceMs: 300,
    });
    const pid = connection.pid!;
    const closes: unknown[] = [];
    connection.onClose((event) => closes.push(event));

    await closeConnection(connection);

    expect(isProcessAlive(pid)).toBe(false);
    expect(closes).toEqual([
      expect.objectContaining({ expected: true, exit: { code: null, signal: "SIGKILL" } }),
    ]);
  });

  it("cleans up a crashed server's grandchildren without being asked", async () => {
    const pidFile = join(dir(), "pids");
    const connection = await connectToServer({
      name: "crashy",
      config: crashOnCallServer({ spawnGrandchild: true, pidFile }),
    });
    const { grandchildren } = pidsOf(pidFile);

    await expect(callTool(connection, { name: "crash", args: {} })).rejects.toMatchObject({
      code: "TRANSPORT_CLOSED",
    });

    expect(await waitForProcessExit(grandchildren[0]!, 5000)).toBe(true);
    await closeConnection(connection);
  });

  it("neither keeps an agent alive nor outlives it when the agent exits without closing", async () => {
    const clientEntry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
    if (!existsSync(clientEntry)) throw new Error('Build first: "pnpm --filter @mcp-rt/client build"');
    const pidFile = join(dir(), "pids");
    const script = [
      `import { connectToServer, callTool } from ${JSON.stringify(pathToFileURL(clientEntry).href)};`,
      `const connection = await connectToServer({ name: "gc", config: ${JSON.stringify(grandchildServer(pidFile))} });`,
      `await callTool(connection, { name: "echo", args: { message: "hi" } });`,
      // No closeConnection: the script just ends.
    ].join("\n");
    const agent = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "inherit" });
    const [code] = (await once(agent, "exit")) as [number | null];
    expect(code).toBe(0);
    const { servers, grandchildren } = pidsOf(pidFile);
    expect(servers).toHaveLength(1);
    for (const pid of [...servers, ...grandchildren]) expect(await waitForProcessExit(pid, 3000)).toBe(true);
  });

  it("kills a server that ignores SIGTERM when the agent calls process.exit() without closing", async () => {
    const clientEntry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
    if (!existsSync(clientEntry)) throw new Error('Build first: "pnpm --filter @mcp-rt/client build"');
    const pidFile = join(dir(), "pids");
    const stubborn = sigtermIgnoringServer({ spawnGrandchild: true, pidFile });
    const script = [
      `import { connectToServer } from ${JSON.stringify(pathToFileURL(clientEntry).href)};`,
      `await connectToServer({ name: "stubborn", config: ${JSON.stringify(stubborn)} });`,
      "process.exit(3);",
    ].join("\n");
    const agent = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "inherit" });
    const [code] = (await once(agent, "exit")) as [number | null];
    expect(code).toBe(3);
    const { servers, grandchildren } = pidsOf(pidFile);
    expect(servers).toHaveLength(1);
    // SIGKILL comes while the agent exits, not later: by the time it has exited they are gone or going.
    for (const pid of [...servers, ...grandchildren]) expect(await waitForProcessExit(pid, 3000)).toBe(true);
  });

  it.skipIf(process.platform !== "linux")(
    "starts the server in config.cwd, resolved against the agent's cwd",
    async () => {
      mkdirSync(join(dir(), "sub"));
      const inSub = await connectToServer({
        name: "sub",
        config: { ...echoServer(), cwd: "sub" },
        cwd: dir(),
      });
      const inAgentCwd = await connectToServer({ name: "agent", config: echoServer(), cwd: dir() });
      try {
        expect(readlinkSync(`/proc/${inSub.pid}/cwd`)).toBe(realpathSync(join(dir(), "sub")));
        expect(readlinkSync(`/proc/${inAgentCwd.pid}/cwd`)).toBe(realpathSync(dir()));
      } finally {
        await Promise.all([closeConnection(inSub), closeConnection(inAgentCwd)]);
      }
    },
  );
});
