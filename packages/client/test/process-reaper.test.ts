import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { MCPStdioServerConfig } from "@mcp-rt/config";
import {
  childProcessesOf,
  echoServer,
  isProcessAlive,
  readPidFile,
  sigtermIgnoringServer,
  waitForProcessExit,
} from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { until, useTempDir } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const dir = useTempDir("mcp-rt-client-");
const clientEntry = fileURLToPath(new URL("../dist/index.js", import.meta.url));

/** Processes started by a test, killed after it whatever happened. */
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
});

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

// The reaper runs as `/bin/sh -c <script> mcp-rt-reaper`.
const reapersOf = (pid: number): number[] =>
  childProcessesOf(pid).filter((child) => cmdline(child).endsWith(" mcp-rt-reaper "));

/** What a host started by {@link startHost} does. */
interface HostPlan {
  /** Connected together, at start. */
  servers: MCPStdioServerConfig[];
  /** Then connected one by one: launched after the reaper. @default [] */
  late?: MCPStdioServerConfig[];
  /** Code run after "ready". @default stays alive until killed */
  after?: string;
}

/**
 * A host: a Node process that connects servers with the built client, says
 * "ready" on stdout, then runs `after`.
 */
async function startHost({
  servers,
  late = [],
  after = "setInterval(() => {}, 1000);",
}: HostPlan): Promise<ChildProcess> {
  if (!existsSync(clientEntry)) throw new Error('Build first: "pnpm --filter @mcp-rt/client build"');
  const script = [
    `import { closeConnection, connectToServer } from ${JSON.stringify(pathToFileURL(clientEntry).href)};`,
    `const servers = ${JSON.stringify(servers)};`,
    "const options = { stdinGraceMs: 100, killGraceMs: 300 };",
    'const connections = await Promise.all(servers.map((config, i) => connectToServer({ name: "s" + i, config, ...options })));',
    `for (const config of ${JSON.stringify(late)}) connections.push(await connectToServer({ name: "late", config, ...options }));`,
    'process.stdout.write("ready\\n");',
    after,
  ].join("\n");
  const host = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  started.push(host.pid!);
  await new Promise<void>((resolve, reject) => {
    host.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    host.once("exit", (code) => reject(new Error(`the host exited early (code ${code})`)));
  });
  return host;
}

describe.skipIf(process.platform !== "linux")("the reaper", () => {
  it("ends every server of a host killed with SIGKILL, grandchildren included, then exits", async () => {
    const pidFile = join(dir(), "pids");
    const stubborn = sigtermIgnoringServer({ spawnGrandchild: true, pidFile });
    const wrapped: MCPStdioServerConfig = {
      command: "sh",
      args: ["-c", `${[stubborn.command, ...(stubborn.args ?? [])].map((a) => `'${a}'`).join(" ")}; :`],
    };
    // The late one is spawned after the reaper: it must not hold the reaper's pipe open.
    const host = await startHost({ servers: [stubborn, stubborn, wrapped], late: [stubborn] });
    // One reaper for the host, not one per server.
    await until(() => reapersOf(host.pid!).length > 0);
    const everything = childProcessesOf(host.pid!);
    started.push(...everything, ...readPidFile(pidFile));
    expect(reapersOf(host.pid!)).toHaveLength(1);
    expect(readPidFile(pidFile)).toHaveLength(8);

    host.kill("SIGKILL");

    for (const pid of new Set([...everything, ...readPidFile(pidFile)])) {
      expect(await waitForProcessExit(pid, 10_000), `${pid} ${cmdline(pid)}`).toBe(true);
    }
  });

  it("is started once and goes when the host's last server is closed", async () => {
    const host = await startHost({
      servers: [echoServer(), echoServer()],
      after: [
        "await new Promise((resolve) => setTimeout(resolve, 300));",
        "await Promise.all(connections.map(closeConnection));",
        'process.stdout.write("closed\\n");',
        "setInterval(() => {}, 1000);",
      ].join("\n"),
    });
    await until(() => reapersOf(host.pid!).length > 0);
    const [reaper] = reapersOf(host.pid!);
    expect(reapersOf(host.pid!)).toHaveLength(1);
    expect(await waitForProcessExit(reaper!, 5000)).toBe(true);
    expect(childProcessesOf(host.pid!)).toEqual([]);
    expect(isProcessAlive(host.pid!)).toBe(true);
  });
});
