import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { MCPStdioServerConfig } from "@mcp-rt/config";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  childProcessesOf,
  grandchildServer,
  isProcessAlive,
  readPidFile,
  readPidFileEntries,
  serverProcessesOf,
  sigtermIgnoringServer,
  waitForProcessExit,
} from "../src/index.js";
import { handshake, useTempDir } from "./helpers.js";

const dir = useTempDir("mcp-rt-testing-");
const strays: number[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
  }
  for (const pid of strays.splice(0)) {
    if (isProcessAlive(pid)) process.kill(pid, "SIGKILL");
    expect(await waitForProcessExit(pid)).toBe(true);
  }
  expect(childProcessesOf(process.pid)).toEqual([]);
});

afterAll(() => {
  expect(childProcessesOf(process.pid)).toEqual([]);
});

/** Starts `config` as a plain child and resolves once it answered `initialize`. */
async function startInitialized(
  config: MCPStdioServerConfig,
): Promise<{ child: ChildProcess; stderr(): string }> {
  const child = spawn(config.command, config.args ?? [], { stdio: "pipe" });
  children.push(child);
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin!.write(handshake);
  await once(child.stdout!, "data");
  child.stdout!.resume();
  return { child, stderr: () => stderr };
}

describe("sigtermIgnoringServer", () => {
  it("survives SIGTERM and stdin closing; SIGKILL ends it", async () => {
    const { child, stderr } = await startInitialized(sigtermIgnoringServer());
    child.kill("SIGTERM");
    child.stdin!.end();
    await expect.poll(stderr, { timeout: 5000 }).toContain("ignoring SIGTERM");
    await expect.poll(stderr, { timeout: 5000 }).toContain("stdin closed; staying alive");
    await sleep(200);
    expect(child.exitCode).toBeNull();
    expect(isProcessAlive(child.pid!)).toBe(true);
    child.kill("SIGKILL");
    const [, signal] = await once(child, "exit");
    expect(signal).toBe("SIGKILL");
  });

  it("survives its client going away: closed pipes do not end it either", async () => {
    const { child } = await startInitialized(sigtermIgnoringServer());
    child.stdout!.destroy();
    child.stderr!.destroy();
    child.stdin!.end();
    // Its log line about SIGTERM goes into a stderr pipe nobody reads any more (EPIPE).
    child.kill("SIGTERM");
    await sleep(500);
    expect(child.exitCode).toBeNull();
    expect(isProcessAlive(child.pid!)).toBe(true);
    child.kill("SIGKILL");
    const [, signal] = await once(child, "exit");
    expect(signal).toBe("SIGKILL");
  });
});

describe("grandchildServer", () => {
  it("records itself and a live grandchild that outlives it", async () => {
    const pidFile = join(dir(), "pids");
    const { child, stderr } = await startInitialized(grandchildServer(pidFile));
    const entries = readPidFileEntries(pidFile);
    expect(entries.map((entry) => entry.role)).toEqual(["server", "grandchild", "initialize"]);
    const [server, grandchild] = entries.map((entry) => entry.pid) as [number, number];
    strays.push(grandchild);
    expect(server).toBe(child.pid);
    expect(stderr()).toContain(`spawned grandchild ${grandchild}`);
    expect(isProcessAlive(grandchild)).toBe(true);
    expect(childProcessesOf(process.pid)).toEqual([server, grandchild].sort((a, b) => a - b));
    expect(childProcessesOf(server)).toEqual([grandchild]);

    // The server leaves when its client does; the grandchild stays, orphaned.
    child.stdin!.end();
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    await sleep(100);
    expect(isProcessAlive(grandchild)).toBe(true);
    expect(childProcessesOf(process.pid)).not.toContain(grandchild);
  });

  it("appends a line per start, and one per initialize, to the pid file", async () => {
    const pidFile = join(dir(), "pids");
    for (let i = 0; i < 2; i++) {
      const { child } = await startInitialized(grandchildServer(pidFile));
      child.stdin!.end();
      await once(child, "exit");
    }
    const entries = readPidFileEntries(pidFile);
    strays.push(...entries.filter((entry) => entry.role === "grandchild").map((entry) => entry.pid));
    expect(entries.map((entry) => entry.role)).toEqual([
      ...["server", "grandchild", "initialize"],
      ...["server", "grandchild", "initialize"],
    ]);
    expect(entries[2]?.pid).toBe(entries[0]?.pid);
    // readPidFile lists the processes, not what they received.
    expect(readPidFile(pidFile)).toEqual(entries.filter((e) => e.role !== "initialize").map((e) => e.pid));
    expect(new Set(readPidFile(pidFile)).size).toBe(4);
  });
});

describe("process utilities", () => {
  it("childProcessesOf sees children and grandchildren, and forgets them once they exit", async () => {
    const script = `const c = require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1e9)"], { stdio: "ignore" });
      console.log(c.pid); setInterval(() => {}, 1e9);`;
    const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(child);
    const [line] = (await once(child.stdout!, "data")) as [Buffer];
    const grandchild = Number(line.toString().trim());
    strays.push(grandchild);
    expect(childProcessesOf(process.pid)).toEqual([child.pid!, grandchild].sort((a, b) => a - b));
    expect(childProcessesOf(child.pid!)).toEqual([grandchild]);
    expect(childProcessesOf(grandchild)).toEqual([]);

    process.kill(grandchild, "SIGKILL");
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(await waitForProcessExit(grandchild)).toBe(true);
    expect(childProcessesOf(process.pid)).toEqual([]);
  });

  it("serverProcessesOf leaves out an mcp-rt reaper and nothing else", async () => {
    const reaper = spawn("/bin/sh", ["-c", "read line", "mcp-rt-reaper"], {
      stdio: ["pipe", "ignore", "ignore"],
    });
    const server = spawn("/bin/sh", ["-c", "read line", "server"], { stdio: ["pipe", "ignore", "ignore"] });
    children.push(reaper, server);
    await Promise.all([once(reaper, "spawn"), once(server, "spawn")]);
    expect(childProcessesOf(process.pid)).toEqual([reaper.pid!, server.pid!].sort((a, b) => a - b));
    expect(serverProcessesOf(process.pid)).toEqual([server.pid!]);
  });

  it("isProcessAlive is true for this process and false for one that exited", async () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(-process.pid)).toBe(false);
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await once(child, "exit");
    expect(isProcessAlive(child.pid!)).toBe(false);
    expect(await waitForProcessExit(child.pid!, 100)).toBe(true);
  });

  it("waitForProcessExit gives up after its timeout on a live process", async () => {
    const started = Date.now();
    expect(await waitForProcessExit(process.pid, 150)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("readPidFile reads nothing from a missing file and names the line of a bad one", () => {
    expect(readPidFile(join(dir(), "missing"))).toEqual([]);
    const bad = join(dir(), "bad");
    writeFileSync(bad, "123 server\n\nnot-a-pid\n");
    expect(() => readPidFile(bad)).toThrow(`${bad}:3: expected`);
    writeFileSync(bad, "7\n8 grandchild\n7 probe\n7 initialize\n");
    expect(readPidFileEntries(bad)).toEqual([
      { pid: 7, role: "server" },
      { pid: 8, role: "grandchild" },
      { pid: 7, role: "probe" },
      { pid: 7, role: "initialize" },
    ]);
    expect(readPidFile(bad)).toEqual([7, 8]);
    writeFileSync(bad, "7 probed\n");
    expect(() => readPidFile(bad)).toThrow(
      `${bad}:1: expected "<pid> server|grandchild|probe|initialize|list"`,
    );
  });
});
