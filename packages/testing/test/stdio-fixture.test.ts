import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import {
  busyStartServer,
  crashAfterInitServer,
  echoServer,
  exitServer,
  fixtureServer,
  garbageServer,
  hangingServer,
  isProcessAlive,
  noisyStderrServer,
  readPidFileEntries,
  silentServer,
  slowInitServer,
  waitForProcessExit,
} from "../src/index.js";
import {
  closeSessionsAfterEach,
  connectStdio,
  handshake,
  rpc,
  runToExit,
  spawnRaw,
  spawnStdio,
  textOf,
  useTempDir,
} from "./helpers.js";

closeSessionsAfterEach();
const dir = useTempDir("mcp-rt-stdio-fixture-");

/** The CPU time (user + system) process `pid` has used so far, in ms, from /proc (Linux). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
}

describe("echo server", () => {
  it("initializes, lists only echo, and echoes", async () => {
    const { client } = await connectStdio(echoServer());
    expect(client.getServerVersion()).toEqual({ name: "mcp-rt-fixture", version: "1.0.0" });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    const { tools, nextCursor } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["echo"]);
    expect(nextCursor).toBeUndefined();
    expect(tools[0]?.inputSchema).toMatchObject({ type: "object", required: ["message"] });
    expect(textOf(await client.callTool({ name: "echo", arguments: { message: "héllo 👋" } }))).toBe(
      "héllo 👋",
    );
  });

  it("rejects bad arguments through the SDK's validation", async () => {
    const { client } = await connectStdio(echoServer());
    const result = await client.callTool({ name: "echo", arguments: { message: 42 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/message/);
  });

  it("takes its server name and tool prefix from the options", async () => {
    const { client } = await connectStdio(echoServer({ name: "Renamed Server", toolPrefix: "x." }));
    expect(client.getServerVersion()?.name).toBe("Renamed Server");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["x.echo"]);
  });

  it("exits with code 0 when its stdin closes", async () => {
    const result = await runToExit(echoServer(), handshake, 100);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("stdin closed");
    expect(JSON.parse(result.stdout.split("\n")[0] ?? "")).toMatchObject({ id: 0, result: {} });
  });
});

describe("start-up faults", () => {
  it("slowInitServer answers initialize only after the delay", async () => {
    const started = Date.now();
    const session = await connectStdio(slowInitServer(400));
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(session.stderr()).toContain("answering in 400 ms");
  });

  it("slowInitServer makes a short initialize timeout fire", async () => {
    const session = spawnStdio(slowInitServer(5000));
    await expect(session.client.connect(session.transport, { timeout: 200 })).rejects.toMatchObject({
      code: SdkErrorCode.RequestTimeout,
    });
  });

  it("hangingServer never answers initialize and stays alive", async () => {
    const session = spawnStdio(hangingServer());
    const connecting = session.client.connect(session.transport, { timeout: 60_000 });
    connecting.catch(() => {});
    // However long a loaded machine takes to start it, it says when initialize arrived…
    await expect.poll(session.stderr, { timeout: 20_000 }).toContain("received initialize; never answering");
    // …and then neither answers it nor exits.
    const outcome = await Promise.race([
      connecting.then(
        () => "answered",
        () => "failed",
      ),
      sleep(500),
    ]);
    expect(outcome).toBeUndefined();
    const pid = session.pid;
    expect(pid).toBeGreaterThan(0);
    expect(isProcessAlive(pid!)).toBe(true);
    await session.close();
    await expect(connecting).rejects.toBeInstanceOf(SdkError);
    expect(await waitForProcessExit(pid!)).toBe(true);
  });

  it("busyStartServer spends its CPU time before it answers initialize", async () => {
    const started = Date.now();
    const session = await connectStdio(busyStartServer(600), 30_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(session.stderr()).toMatch(/spent \d+ ms of CPU at start \(--start-cpu-ms\)/);
    // CPU, not a sleep: what makes many such servers started at once slow each other down.
    if (process.platform === "linux" && session.pid) expect(cpuMsOf(session.pid)).toBeGreaterThanOrEqual(600);
  });

  it("silentServer reads initialize, never answers, and writes nothing at all", async () => {
    const pidFile = join(dir(), "pids");
    const server = spawnRaw(silentServer({ pidFile }));
    server.child.stdin?.write(handshake);
    // It says nothing, so the pid file is where it shows that initialize arrived.
    await expect
      .poll(() => readPidFileEntries(pidFile).map((entry) => entry.role), { timeout: 20_000 })
      .toContain("initialize");
    expect(await server.next(300)).toBeUndefined();
    expect(server.stderr()).toBe("");
    expect(isProcessAlive(server.child.pid ?? 0)).toBe(true);
    await server.close();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toBe("");
  });

  it("crashAfterInitServer answers initialize, then exits with code 1", async () => {
    const result = await runToExit(crashAfterInitServer(), handshake, 5000);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout.split("\n")[0] ?? "")).toMatchObject({
      id: 0,
      result: { serverInfo: {} },
    });
    expect(result.stderr).toContain("crashing right after initialize");
  });

  it("crashAfterInitServer closes an SDK client's connection right after connect", async () => {
    const session = spawnStdio(crashAfterInitServer());
    const closed = new Promise<void>((resolve) => {
      session.client.onclose = () => resolve();
    });
    await session.client.connect(session.transport);
    await closed;
    expect(session.stderr()).toContain("--crash-after-init");
  });

  it.each([0, 3, 127])("exitServer(%i) writes one stderr line and exits with that code", async (code) => {
    const result = await runToExit(exitServer(code), handshake, 5000);
    expect(result.code).toBe(code);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([expect.stringContaining(`code ${code}`)]);
  });

  it("garbageServer writes only non-JSON to stdout and never initializes", async () => {
    const result = await runToExit(garbageServer(), handshake, 300);
    const lines = result.stdout.trim().split("\n");
    expect(lines.length).toBe(3); // the greeting and one reply per input line
    for (const line of lines) expect(() => JSON.parse(line)).toThrow();
    expect(result.code).toBe(0);

    const session = spawnStdio(garbageServer());
    await expect(session.client.connect(session.transport, { timeout: 500 })).rejects.toBeInstanceOf(
      SdkError,
    );
  });

  it("stdoutNoise interleaves log lines with valid MCP messages", async () => {
    const result = await runToExit(fixtureServer({ stdoutNoise: true }), handshake, 300);
    const lines = result.stdout.trim().split("\n");
    expect(lines.filter((line) => line.startsWith("log line ")).length).toBe(3);
    expect(lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line).id)).toEqual([0]);
  });
});

describe("stderr", () => {
  it("noisyStderrServer floods stderr and still serves", async () => {
    const session = await connectStdio(noisyStderrServer());
    await expect.poll(() => /noise \d{2,} /.test(session.stderr()), { timeout: 5000 }).toBe(true);
    expect(session.stderr().length).toBeGreaterThan(128 * 1024);
    expect(textOf(await session.client.callTool({ name: "echo", arguments: { message: "ok" } }))).toBe("ok");
  });

  it("answers a raw tools/call written by hand", async () => {
    const call = rpc({
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { message: "raw" } },
    });
    const result = await runToExit(echoServer(), handshake + call, 300);
    const responses = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(responses[1]).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "raw" }] },
    });
  });
});
