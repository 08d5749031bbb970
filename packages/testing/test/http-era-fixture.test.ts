import { join } from "node:path";
import {
  Client,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  childProcessesOf,
  type HttpFixture,
  type HttpFixtureOptions,
  readPidFileEntries,
  startHttpFixture,
} from "../src/index.js";
import { useTempDir } from "./helpers.js";

const fixtures: HttpFixture[] = [];
const dir = useTempDir("mcp-rt-http-era-");

afterEach(async () => {
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

const MODERN = "2026-07-28";
const envelope = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const discover = { jsonrpc: "2.0", id: "probe-1", method: "server/discover", params: { _meta: envelope } };
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** A JSON-RPC request or notification. */
type Message = { method: string; params?: object } & Record<string, unknown>;

/** POSTs one message; a 2026-07-28 one with the headers that era requires. */
function post(url: string, message: Message, headers: Record<string, string> = {}): Promise<Response> {
  const modern = JSON.stringify(message.params ?? {}).includes(MODERN);
  const name = (message.params as { name?: string } | undefined)?.name;
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(modern ? { "mcp-protocol-version": MODERN, "mcp-method": message.method } : {}),
      ...(modern && name ? { "mcp-name": name } : {}),
      ...headers,
    },
    body: JSON.stringify(message),
  });
}

/** The JSON-RPC message in a response: a JSON body, or the first event of an event stream. */
async function messageOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!response.headers.get("content-type")?.includes("text/event-stream")) return JSON.parse(text);
  const data = /^data: (.*)$/m.exec(text)?.[1];
  return JSON.parse(data ?? "null");
}

const discoverResult = {
  jsonrpc: "2.0",
  id: "probe-1",
  result: expect.objectContaining({ supportedVersions: [MODERN] }),
};

function rolesOf(pidFile: string, fixture: HttpFixture): string[] {
  const entries = readPidFileEntries(pidFile);
  expect(entries.map((entry) => entry.pid)).toEqual(entries.map(() => fixture.pid));
  return entries.map((entry) => entry.role);
}

describe("legacy HTTP fixture and a server/discover probe", () => {
  it("answers it 400 -32000 (no session) by default", async () => {
    const fixture = await start();
    const response = await post(fixture.url, discover);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32000 } });
  });

  it("answers it with probeStatus and a plain body, and serves the rest as legacy", async () => {
    const pidFile = join(dir(), "pids");
    const fixture = await start({ probeStatus: 500, pidFile });
    const probe = await post(fixture.url, discover);
    expect(probe.status).toBe(500);
    expect(probe.headers.get("content-type")).toBe("text/plain");
    expect(await probe.text()).toBe("Internal Server Error");
    const init = await post(fixture.url, initialize);
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await messageOf(init)).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
    expect(rolesOf(pidFile, fixture)).toEqual(["server", "probe", "initialize"]);
  });
});

describe("modern HTTP fixture", () => {
  it("refuses initialize with 400 -32022 and serves 2026-07-28 requests", async () => {
    const pidFile = join(dir(), "pids");
    const fixture = await start({ era: "modern", pidFile, tools: 1 });
    const init = await post(fixture.url, initialize);
    expect(init.status).toBe(400);
    expect(await init.json()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32022,
        message: "Unsupported protocol version: 2025-11-25",
        data: { supported: [MODERN], requested: "2025-11-25" },
      },
    });
    const probe = await post(fixture.url, discover);
    expect(probe.status).toBe(200);
    expect(await messageOf(probe)).toEqual(discoverResult);
    const call = await post(fixture.url, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "tool_0", arguments: { input: "x" }, _meta: envelope },
    });
    expect(await messageOf(call)).toMatchObject({ id: 2, result: { content: [{ text: "tool_0: x" }] } });
    expect((await fetch(fixture.url)).status).toBe(405);
    expect(rolesOf(pidFile, fixture)).toEqual(["server", "initialize", "probe"]);
  });
});

describe("dual-era HTTP fixture", () => {
  it("answers discover as modern and initialize with a legacy session", async () => {
    const pidFile = join(dir(), "pids");
    const fixture = await start({ era: "dual", pidFile });
    expect(await messageOf(await post(fixture.url, discover))).toEqual(discoverResult);
    const init = await post(fixture.url, initialize);
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id") ?? "";
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(await messageOf(init)).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    await post(fixture.url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    const list = await post(fixture.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, headers);
    expect(await messageOf(list)).toMatchObject({ id: 2, result: { tools: [{ name: "echo" }] } });
    expect(rolesOf(pidFile, fixture)).toEqual(["server", "probe", "initialize", "list"]);
  });
});

describe("the SDK client's own negotiation (versionNegotiation auto) on each fixture", () => {
  const negotiate = async (fixture: HttpFixture): Promise<string | undefined> => {
    const client = new Client({ name: "auto", version: "1" }, { versionNegotiation: { mode: "auto" } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(fixture.url)), { timeout: 10_000 });
      const result = await client.callTool({ name: "echo", arguments: { message: "ok" } });
      expect(result.content).toEqual([{ type: "text", text: "ok" }]);
      return client.getProtocolEra();
    } finally {
      await client.close();
    }
  };

  it("lands legacy, modern and modern on the legacy, modern and dual fixtures", async () => {
    expect(await negotiate(await start())).toBe("legacy");
    expect(await negotiate(await start({ era: "modern" }))).toBe("modern");
    expect(await negotiate(await start({ era: "dual" }))).toBe("modern");
  });

  it("gives up on a probe answered 500: it does not fall back by itself", async () => {
    const error = await negotiate(await start({ probeStatus: 500 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkHttpError);
    expect(error).toMatchObject({ code: SdkErrorCode.EraNegotiationFailed, status: 500 });
  });
});

describe("modern HTTP fixture: ask through input_required", () => {
  const elicitationCapable = {
    ...envelope,
    "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {}, url: {} } },
  };
  const ask = (id: number, extra: Record<string, unknown> = {}): Message => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "ask", arguments: { rounds: 2 }, _meta: elicitationCapable, ...extra },
  });
  type Asked = {
    result: { resultType: string; requestState: string; inputRequests: Record<string, unknown> };
  };

  it("asks the form in rounds, remembers earlier answers only in requestState, and refuses a changed one", async () => {
    const fixture = await start({ era: "modern", content: true });
    const first = (await messageOf(await post(fixture.url, ask(1)))) as Asked;
    expect(first.result).toMatchObject({
      resultType: "input_required",
      inputRequests: {
        who: { method: "elicitation/create", params: { message: "Who are you? (round 1 of 2)" } },
      },
      requestState: expect.any(String),
    });
    const answer = (name: string) => ({ who: { action: "accept", content: { name } } });
    const second = (await messageOf(
      await post(
        fixture.url,
        ask(2, { inputResponses: answer("Ada"), requestState: first.result.requestState }),
      ),
    )) as Asked;
    expect(second.result).toMatchObject({ resultType: "input_required" });
    expect(second.result.requestState).not.toBe(first.result.requestState);
    const done = await messageOf(
      await post(
        fixture.url,
        ask(3, { inputResponses: answer("Grace"), requestState: second.result.requestState }),
      ),
    );
    expect(done).toMatchObject({
      result: { content: [{ text: 'answer: accept {"name":"Grace"} (earlier rounds: Ada)' }] },
    });
    const changed = `x${second.result.requestState}`;
    const refused = await messageOf(
      await post(fixture.url, ask(4, { inputResponses: answer("Eve"), requestState: changed })),
    );
    expect(refused).toMatchObject({ id: 4, error: { code: -32602 } });
  });
});
