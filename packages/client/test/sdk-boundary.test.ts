import { getEventListeners } from "node:events";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  callTool,
  listTools,
  type MCPConnectionCloseEvent,
  type MCPServerConnection,
  readResource,
} from "@mcp-rt/client";
import { type HttpFixture, manyToolsServer, startHttpFixture } from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { getConnectionInternals } from "../src/server-connection.js";
import { inlineServer, useConnections } from "./helpers.js";
import { checkNoPortsLeftAfterFile, useTestServers } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

// What mcp-rt relies on in the SDK's client, each a place where v2 differs from v1
// (docs/sdk.md, the client's SDK ledger). A new SDK version is read against this file first.

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((server) => server.close()));
});
const { proxy } = useTestServers();
const { connect } = useConnections();

/** A stdio peer without the SDK: every `tools/list` and `resources/read` answer is new, and says it stays fresh for an hour. */
const cachingServer = inlineServer([
  'import { createInterface } from "node:readline";',
  "let n = 0;",
  "const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');",
  "const hint = { ttlMs: 3600000, cacheScope: 'public' };",
  "createInterface({ input: process.stdin }).on('line', (line) => {",
  "  const { id, method, params } = JSON.parse(line);",
  "  if (id === undefined) return;",
  "  if (method === 'initialize') send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {}, resources: {} }, serverInfo: { name: 'cached', version: '1' } } });",
  "  else if (method === 'tools/list') send({ id, result: { tools: [{ name: 'listed_' + ++n, inputSchema: { type: 'object' } }], ...hint } });",
  "  else if (method === 'resources/read') send({ id, result: { contents: [{ uri: params.uri, text: 'read ' + ++n }], ...hint } });",
  "  else send({ id, error: { code: -32601, message: 'no ' + method } });",
  "});",
]);

/** The signals the client's requests get from now on. */
function recordSignals(connection: MCPServerConnection): AbortSignal[] {
  const client = getConnectionInternals(connection).client;
  const signals: AbortSignal[] = [];
  const request = client.request.bind(client) as (...args: unknown[]) => Promise<unknown>;
  (client as { request: unknown }).request = (...args: unknown[]) => {
    const options = args.at(-1) as { signal?: AbortSignal } | undefined;
    if (options?.signal) signals.push(options.signal);
    return request(...args);
  };
  return signals;
}

/** An odd `requestState`: a client must send it back byte for byte, unparsed. */
const MRTR_STATE = ' {"ö":1}\\n ✓ ';

/** A 2026-07-28 stdio peer without the SDK: `confirm` asks for a form (input_required), then completes. */
const mrtrServer = inlineServer([
  'import { createInterface } from "node:readline";',
  "const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');",
  `const state = ${JSON.stringify(MRTR_STATE)};`,
  "createInterface({ input: process.stdin }).on('line', (line) => {",
  "  const { id, method, params } = JSON.parse(line);",
  "  if (id === undefined) return;",
  "  if (method === 'server/discover') send({ id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'mrtr', version: '1' } } });",
  "  else if (method === 'tools/call' && params.requestState === state) send({ id, result: { resultType: 'complete', content: [{ type: 'text', text: 'confirmed' }] } });",
  "  else if (method === 'tools/call') send({ id, result: { resultType: 'input_required', inputRequests: { q: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } }, requestState: state } });",
  "  else send({ id, error: { code: -32601, message: 'no ' + method } });",
  "});",
]);

/** The requests the client sends from now on. */
function recordRequests(connection: MCPServerConnection): Array<{ method: string; params?: unknown }> {
  const transport = getConnectionInternals(connection).client.transport!;
  const sent: Array<{ method: string; params?: unknown }> = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ("method" in message && "id" in message) sent.push({ method: message.method, params: message.params });
    return send(message, options);
  };
  return sent;
}

describe("@modelcontextprotocol/client as mcp-rt uses it", () => {
  it("is version 2.4.0, the one this file was checked against", () => {
    const entry = createRequire(import.meta.url).resolve("@modelcontextprotocol/client");
    const manifest = JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8"));
    expect(manifest).toMatchObject({ name: "@modelcontextprotocol/client", version: "2.4.0" });
  });

  it("gets a real AbortSignal for each tool call, and removes its listener when the call ends", async () => {
    // v2's Protocol.request calls removeEventListener on the signal as each request ends:
    // a stand-in that only imitates part of AbortSignal fails every call.
    const connection = await connect({ name: "calls", config: manyToolsServer(1) });
    const signals = recordSignals(connection);

    const result = await callTool(connection, { name: "echo", args: { message: "through v2" } });

    expect(result.content).toEqual([{ type: "text", text: "through v2" }]);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toBeInstanceOf(AbortSignal);
    expect(getEventListeners(signals[0] as AbortSignal, "abort")).toHaveLength(0);
  });

  it("hands a settled call's signal to the next call once the SDK let go of it, never an aborted one", async () => {
    // Reused because it carries no listener of the SDK's any more (the test above); an aborted one
    // would fail the next call before it is sent.
    const connection = await connect({ name: "reuse", config: manyToolsServer(1) });
    const signals = recordSignals(connection);

    await callTool(connection, { name: "echo", args: { message: "first" } });
    await callTool(connection, { name: "echo", args: { message: "second" } });
    const caller = new AbortController();
    const aborted = callTool(connection, { name: "echo", args: { message: "third" }, signal: caller.signal });
    caller.abort(new Error("stop"));
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    const after = await callTool(connection, { name: "echo", args: { message: "after the abort" } });

    expect(after.content).toEqual([{ type: "text", text: "after the abort" }]);
    expect(signals).toHaveLength(4);
    expect(signals[1]).toBe(signals[0]);
    expect(signals[2]).toBe(signals[0]);
    expect(signals[2]?.aborted).toBe(true);
    expect(signals[3]).not.toBe(signals[2]);
    expect(signals[3]?.aborted).toBe(false);
    expect(getEventListeners(signals[3] as AbortSignal, "abort")).toHaveLength(0);
  });

  it("pages tools/list itself, one request a page, past the SDK's own cap of 64 pages", async () => {
    // Without a cursor, v2's listTools() walks every page itself and throws after 64.
    const connection = await connect({ name: "pages", config: manyToolsServer(79, { pageSize: 1 }) });
    const sent = recordRequests(connection);

    const tools = await listTools(connection);

    expect(tools).toHaveLength(80);
    const lists = sent.filter((request) => request.method === "tools/list");
    expect(lists).toHaveLength(80);
    expect(lists[0]?.params).toEqual({});
    expect(lists[1]?.params).toEqual({ cursor: "offset:1" });
  });

  it("asks the server again on every listing and read: nothing comes from the SDK's response cache", async () => {
    // v2 keeps results a server says are fresh (ttlMs) and answers listTools() and
    // readResource() from them, even on a 2025 connection: a re-list after list_changed would be stale.
    const connection = await connect({ name: "cached", config: cachingServer });

    expect((await listTools(connection)).map((tool) => tool.name)).toEqual(["listed_1"]);
    expect((await listTools(connection)).map((tool) => tool.name)).toEqual(["listed_2"]);
    expect((await readResource(connection, { uri: "note://a" })).contents).toEqual([
      { uri: "note://a", text: "read 3" },
    ]);
    expect((await readResource(connection, { uri: "note://a" })).contents).toEqual([
      { uri: "note://a", text: "read 4" },
    ]);
  });

  it("speaks the 2025-11-25 revision with initialize, as v1 did", async () => {
    const connection = await connect({ name: "wire", config: manyToolsServer(1) });
    expect(connection.protocolVersion).toBe("2025-11-25");
    expect(getConnectionInternals(connection).client.getProtocolEra()).toBe("legacy");
  });

  it("answers input_required inside client.request: the registered handler, a new id, requestState as sent", async () => {
    const connection = await connect({
      name: "asks",
      config: mrtrServer,
      onElicitation: () => ({ action: "accept", content: { ok: true } }),
    });
    expect(getConnectionInternals(connection).client.getProtocolEra()).toBe("modern");
    const transport = getConnectionInternals(connection).client.transport!;
    const sent: Array<{ id: unknown; params: Record<string, unknown> }> = [];
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if ("method" in message && "id" in message && message.method === "tools/call") {
        sent.push({ id: message.id, params: message.params as Record<string, unknown> });
      }
      return send(message, options);
    };
    const result = await callTool(connection, { name: "confirm", args: {} });
    expect(result.content).toEqual([{ type: "text", text: "confirmed" }]);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.id).not.toBe(sent[0]?.id);
    expect(sent[0]?.params).not.toHaveProperty("requestState");
    expect(sent[1]?.params).toMatchObject({
      name: "confirm",
      inputResponses: { q: { action: "accept", content: { ok: true } } },
      requestState: MRTR_STATE,
    });
  });

  it("closes a connection whose event stream cannot be re-opened, knowing so by its own count of attempts", async () => {
    // v2 says so only in an error's text ("Maximum reconnection attempts"); mcp-rt schedules the
    // attempts itself and stops after the SDK's default two.
    const fixture = await startHttpFixture({ transport: "http" });
    fixtures.push(fixture);
    let streams = 0;
    const front = await proxy(new URL(fixture.url).origin, {
      intercept(req, res) {
        if (req.method !== "GET") return false;
        if (++streams === 1) {
          res.writeHead(200, { "content-type": "text/event-stream" }).write(": open\n\n");
          setTimeout(() => res.end(), 50);
        } else {
          res.writeHead(503, "Service Unavailable").end("down for maintenance");
        }
        return true;
      },
    });
    const connection = await connect({
      name: "streamy",
      config: { type: "http", url: `${front.origin}/mcp` },
    });
    const closed = new Promise<MCPConnectionCloseEvent>((resolve) => connection.onClose(resolve));

    const event = await closed;

    expect(streams).toBe(3);
    expect(event.expected).toBe(false);
    expect(event.reason).toMatch(
      /^MCP server "streamy" stopped: its event stream closed and could not be re-opened: .*Service Unavailable/,
    );
  }, 20_000);
});
