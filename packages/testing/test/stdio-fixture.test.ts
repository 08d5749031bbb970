import { setTimeout as sleep } from "node:timers/promises";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  childProcessesOf,
  crashAfterInitServer,
  crashOnCallServer,
  echoServer,
  exitServer,
  fixtureServer,
  garbageServer,
  hangingServer,
  hugeOutputServer,
  isProcessAlive,
  listChangingServer,
  manyToolsServer,
  noisyStderrServer,
  slowCallServer,
  slowInitServer,
  waitForProcessExit,
} from "../src/index.js";
import { closeAll, connectStdio, handshake, rpc, runToExit, spawnStdio } from "./helpers.js";

const textOf = (result: unknown): string => {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((block) => block.text ?? "").join("");
};

afterEach(async () => {
  await closeAll();
  expect(childProcessesOf(process.pid)).toEqual([]);
});

afterAll(() => {
  expect(childProcessesOf(process.pid)).toEqual([]);
});

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
      code: ErrorCode.RequestTimeout,
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
    await expect(connecting).rejects.toBeInstanceOf(McpError);
    expect(await waitForProcessExit(pid!)).toBe(true);
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
      McpError,
    );
  });

  it("stdoutNoise interleaves log lines with valid MCP messages", async () => {
    const result = await runToExit(fixtureServer({ stdoutNoise: true }), handshake, 300);
    const lines = result.stdout.trim().split("\n");
    expect(lines.filter((line) => line.startsWith("log line ")).length).toBe(3);
    expect(lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line).id)).toEqual([0]);
  });
});

describe("tool listing", () => {
  it("manyToolsServer pages tools/list with nextCursor", async () => {
    const { client } = await connectStdio(manyToolsServer(25, 10));
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      pages.push(page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(pages.map((page) => page.length)).toEqual([10, 10, 6]);
    expect(pages.flat()).toEqual(["echo", ...Array.from({ length: 25 }, (_, i) => `tool_${i}`)]);
    expect(textOf(await client.callTool({ name: "tool_24", arguments: { input: "x" } }))).toBe("tool_24: x");
  });

  it("manyToolsServer without a page size lists everything at once", async () => {
    const { client } = await connectStdio(manyToolsServer(300));
    const page = await client.listTools();
    expect(page.tools.length).toBe(301);
    expect(page.nextCursor).toBeUndefined();
  });

  it("rejects an unknown cursor with InvalidParams", async () => {
    const { client } = await connectStdio(manyToolsServer(5, 2));
    await expect(client.listTools({ cursor: "nonsense" })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });

  it("cursorLoop returns the same nextCursor forever", async () => {
    const { client } = await connectStdio(fixtureServer({ tools: 3, pageSize: 2, cursorLoop: true }));
    const first = await client.listTools();
    const second = await client.listTools({ cursor: first.nextCursor! });
    expect(first.nextCursor).toBe("loop");
    expect(second.nextCursor).toBe("loop");
    expect(second.tools.map((tool) => tool.name)).toEqual(first.tools.map((tool) => tool.name));
  });

  it("listChangingServer adds and removes tools and notifies", async () => {
    const { client } = await connectStdio(listChangingServer());
    let notifications = 0;
    let notified: () => void = () => {};
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notifications++;
      notified();
    });
    const nextNotification = (): Promise<void> => new Promise((resolve) => (notified = resolve));
    const names = async (): Promise<string[]> => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names()).toEqual(["echo", "add_tool", "remove_tool"]);

    let change = nextNotification();
    expect(textOf(await client.callTool({ name: "add_tool", arguments: { name: "fresh" } }))).toBe(
      "added fresh",
    );
    await change;
    expect(await names()).toContain("fresh");
    expect(textOf(await client.callTool({ name: "fresh", arguments: {} }))).toBe("fresh called");

    const duplicate = await client.callTool({ name: "add_tool", arguments: { name: "fresh" } });
    expect(duplicate.isError).toBe(true);

    change = nextNotification();
    await client.callTool({ name: "remove_tool", arguments: { name: "fresh" } });
    await change;
    expect(await names()).not.toContain("fresh");
    expect((await client.callTool({ name: "remove_tool", arguments: { name: "fresh" } })).isError).toBe(true);
    expect(notifications).toBe(2);
  });
});

describe("tool calls", () => {
  it("crashOnCallServer dies in the middle of a crash call", async () => {
    const session = await connectStdio(crashOnCallServer());
    expect((await session.client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo", "crash"]);
    const pid = session.transport.pid!;
    await expect(session.client.callTool({ name: "crash", arguments: {} })).rejects.toThrow(/closed/i);
    expect(await waitForProcessExit(pid)).toBe(true);
    expect(session.stderr()).toContain("crashing during tools/call");
  });

  it("slowCallServer sends one progress notification per step, then the result", async () => {
    const call = rpc({
      id: 1,
      method: "tools/call",
      params: { name: "slow", arguments: { ms: 200, steps: 4 }, _meta: { progressToken: "p" } },
    });
    const result = await runToExit(slowCallServer(), handshake + call, 2000);
    const messages = result.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => JSON.parse(line));
    expect(
      messages.slice(0, 4).map((m) => [m.method, m.params.progressToken, m.params.progress, m.params.total]),
    ).toEqual([1, 2, 3, 4].map((step) => ["notifications/progress", "p", step, 4]));
    expect(messages[4]).toMatchObject({
      id: 1,
      result: { content: [{ text: "slow done: 200 ms in 4 steps" }] },
    });
  });

  it("slowCallServer reports progress to an SDK client", async () => {
    const { client } = await connectStdio(slowCallServer());
    const progress: number[] = [];
    const result = await client.callTool({ name: "slow", arguments: { ms: 300, steps: 4 } }, undefined, {
      onprogress: ({ progress: value, total }) => {
        expect(total).toBe(4);
        progress.push(value);
      },
    });
    expect(textOf(result)).toBe("slow done: 300 ms in 4 steps");
    // The SDK client handles notifications a tick later than responses, so it
    // may drop the last ones; the test above shows the server sends all four.
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it("slowCallServer stops when the call is cancelled", async () => {
    const session = await connectStdio(slowCallServer());
    const controller = new AbortController();
    const call = session.client.callTool({ name: "slow", arguments: { ms: 10_000, steps: 100 } }, undefined, {
      signal: controller.signal,
      onprogress: ({ progress }) => {
        if (progress === 2) controller.abort();
      },
    });
    await expect(call).rejects.toThrow();
    await expect
      .poll(() => session.stderr(), { timeout: 5000 })
      .toMatch(/slow cancelled after \d+ of 100 steps/);
    expect(
      textOf(await session.client.callTool({ name: "echo", arguments: { message: "still here" } })),
    ).toBe("still here");
  });

  it("hugeOutputServer returns exactly the requested number of characters", async () => {
    const { client } = await connectStdio(hugeOutputServer());
    expect(textOf(await client.callTool({ name: "huge", arguments: { bytes: 3_000_000 } })).length).toBe(
      3_000_000,
    );
    expect(textOf(await client.callTool({ name: "huge", arguments: {} })).length).toBe(1_000_000);
    expect(textOf(await client.callTool({ name: "huge", arguments: { bytes: 0 } }))).toBe("");
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
