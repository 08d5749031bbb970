import { join } from "node:path";
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  childProcessesOf,
  type HttpFixture,
  type HttpFixtureOptions,
  isProcessAlive,
  readPidFileEntries,
  startHttpFixture,
  waitForProcessExit,
} from "../src/index.js";
import { textOf, useTempDir } from "./helpers.js";

const fixtures: HttpFixture[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
  expect(childProcessesOf(process.pid)).toEqual([]);
});

afterAll(() => {
  expect(childProcessesOf(process.pid)).toEqual([]);
});

async function start(options: HttpFixtureOptions = {}): Promise<HttpFixture> {
  const fixture = await startHttpFixture(options);
  fixtures.push(fixture);
  return fixture;
}

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: "fixture-test", version: "1.0.0" });
  clients.push(client);
  await client.connect(transport, { timeout: 10_000 });
  return client;
}

const echo = async (client: Client, message: string): Promise<string> =>
  textOf(await client.callTool({ name: "echo", arguments: { message } }));

describe("Streamable HTTP fixture", () => {
  it("listens on 127.0.0.1 and serves stateful sessions", async () => {
    const fixture = await start({ name: "remote", tools: 4, pageSize: 2 });
    expect(fixture.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(fixture.config).toEqual({ type: "http", url: fixture.url });
    const transport = new StreamableHTTPClientTransport(new URL(fixture.url));
    const client = await connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()?.name).toBe("remote");
    const first = await client.request({ method: "tools/list", params: {} });
    expect(first.tools.map((tool) => tool.name)).toEqual(["echo", "tool_0"]);
    expect(first.nextCursor).toBeDefined();
    expect(await echo(client, "over http")).toBe("over http");

    const other = new StreamableHTTPClientTransport(new URL(fixture.url));
    await connect(other);
    expect(other.sessionId).not.toBe(transport.sessionId);
  });

  it("rejects a request with an unknown session id", async () => {
    const fixture = await start();
    const response = await fetch(fixture.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": "nope",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(404);
  });

  it("keeps list changes per session and notifies that session", async () => {
    const fixture = await start({ listChanging: true });
    const a = await connect(new StreamableHTTPClientTransport(new URL(fixture.url)));
    const b = await connect(new StreamableHTTPClientTransport(new URL(fixture.url)));
    const notified = new Promise<void>((resolve) =>
      a.setNotificationHandler("notifications/tools/list_changed", () => resolve()),
    );
    await a.callTool({ name: "add_tool", arguments: { name: "only_a" } });
    await notified;
    expect((await a.listTools()).tools.map((tool) => tool.name)).toContain("only_a");
    expect((await b.listTools()).tools.map((tool) => tool.name)).not.toContain("only_a");
  });

  it("delays initialize by initDelayMs", async () => {
    const fixture = await start({ initDelayMs: 300 });
    const started = Date.now();
    await connect(new StreamableHTTPClientTransport(new URL(fixture.url)));
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it("requires the bearer token when one is set", async () => {
    const fixture = await start({ bearerToken: "s3cret" });
    await expect(connect(new StreamableHTTPClientTransport(new URL(fixture.url)))).rejects.toThrow();
    const client = await connect(
      new StreamableHTTPClientTransport(new URL(fixture.url), {
        requestInit: { headers: { authorization: "Bearer s3cret" } },
      }),
    );
    expect(await echo(client, "authorized")).toBe("authorized");
  });

  it("dies mid-call with crashOnCall", async () => {
    const fixture = await start({ crashOnCall: true });
    const client = await connect(new StreamableHTTPClientTransport(new URL(fixture.url)));
    await expect(client.callTool({ name: "crash", arguments: {} })).rejects.toThrow();
    expect(await waitForProcessExit(fixture.pid)).toBe(true);
    expect(fixture.stderr()).toContain("crashing during tools/call");
  });
});

describe("HTTP faults", () => {
  it("garbageStdout answers every request with HTML, so an SDK client cannot connect", async () => {
    const fixture = await start({ garbageStdout: true });
    const response = await fetch(fixture.url, { method: "POST", body: "{}" });
    expect(response.headers.get("content-type")).toBe("text/html");
    expect(await response.text()).toContain("not an MCP server");
    await expect(connect(new StreamableHTTPClientTransport(new URL(fixture.url)))).rejects.toThrow();
  });
});

describe("legacy SSE fixture", () => {
  it("serves the SSE transport at /sse and not Streamable HTTP", async () => {
    const fixture = await start({ transport: "sse" });
    expect(fixture.url).toMatch(/\/sse$/);
    expect(fixture.config.type).toBe("sse");
    const client = await connect(new SSEClientTransport(new URL(fixture.url)));
    expect(await echo(client, "over sse")).toBe("over sse");
    // A Streamable HTTP client's first POST fails, which is what makes clients fall back to SSE.
    const post = await fetch(fixture.url, { method: "POST", body: "{}" });
    expect(post.status).toBe(405);
  });
});

describe("startHttpFixture", () => {
  const dir = useTempDir("mcp-rt-testing-http-");

  it("rejects with the stderr line when the server exits before listening", async () => {
    await expect(startHttpFixture({ exitCode: 4 })).rejects.toThrow(
      /exited \(code 4\) before listening[\s\S]*code 4/,
    );
  });

  it("close() stops the server and its grandchild, even when SIGTERM is ignored", async () => {
    const pidFile = join(dir(), "pids");
    const fixture = await start({ spawnGrandchild: true, ignoreSigterm: true, pidFile });
    const pids = readPidFileEntries(pidFile).map((entry) => entry.pid);
    expect(pids).toEqual([fixture.pid, expect.any(Number)]);
    expect(pids.every(isProcessAlive)).toBe(true);
    const started = Date.now();
    await fixture.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const pid of pids) expect(await waitForProcessExit(pid)).toBe(true);
    expect(fixture.stderr()).toContain("ignoring SIGTERM");
    await fixture.close(); // idempotent
  });

  it("supports await using", async () => {
    let pid = 0;
    {
      await using fixture = await startHttpFixture();
      pid = fixture.pid;
      expect(isProcessAlive(pid)).toBe(true);
    }
    expect(await waitForProcessExit(pid)).toBe(true);
  });
});
