import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir, hostname, tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import {
  callTool,
  closeConnection,
  connectToServer,
  getPrompt,
  listPrompts,
  listResources,
  listResourceTemplates,
  listTools,
  localUser,
  type MCPElicitationRequest,
  type MCPServerConnection,
  ping,
  readResource,
  subscribeResource,
  unsubscribeResource,
} from "@mcp-rt/client";
import type { MCPServerConfig } from "@mcp-rt/config";
import { type HttpFixture, legacyServer, modernServer, startHttpFixture } from "@mcp-rt/testing";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { useTempDir } from "./helpers.js";
import { checkNoPortsLeftAfterFile, useTestServers } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

// What leaves the machine in `_meta` and `clientInfo` (issue 49, part 4): a
// server learns the protocol's facts and mcp-rt's name and version, nothing
// about the host, the user, their folders or their sessions. Every message
// mcp-rt sends is read on the wire, behind a recorder, in both eras.

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };
const CLIENT_INFO = { name: "mcp-rt", version };
const RECORDER = join(import.meta.dirname, "fixtures", "stdin-recorder.mjs");
const tempDir = useTempDir("mcp-rt-outgoing-meta-");
const servers = useTestServers();
const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

interface Wire {
  config: MCPServerConfig;
  /** Every JSON-RPC message mcp-rt sent, in order. */
  sent(): Array<Record<string, unknown>>;
  /** Session ids the server handed out (HTTP `Mcp-Session-Id`), seen on mcp-rt's requests. */
  sessionIds(): string[];
}

type Era = "legacy" | "modern";
const fixtureOptions = { content: true, slowTool: true } as const;

/** A stdio fixture of `era` behind the recorder. */
function stdioWire(era: Era): Wire {
  const server =
    era === "modern" ? modernServer(fixtureOptions) : legacyServer("method-not-found", fixtureOptions);
  const log = join(tempDir(), "sent.jsonl");
  return {
    config: { command: process.execPath, args: [RECORDER, log, server.command, ...(server.args ?? [])] },
    sent: () =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    sessionIds: () => [],
  };
}

/** An HTTP fixture (Streamable HTTP or SSE) of `era` behind a recording proxy. */
async function httpWire(era: Era, transport: "http" | "sse"): Promise<Wire> {
  const fixture = await startHttpFixture({ era, transport, ...fixtureOptions });
  fixtures.push(fixture);
  const bodies: string[] = [];
  const ids = new Set<string>();
  const proxy = await servers.proxy(new URL(fixture.url).origin, {
    intercept: (req, _res, body) => {
      if (req.method === "POST") bodies.push(body);
      const id = req.headers["mcp-session-id"];
      if (typeof id === "string") ids.add(id);
      return false;
    },
  });
  const url = new URL(fixture.url);
  return {
    config: { type: transport, url: `${proxy.origin}${url.pathname}` },
    sent: () => bodies.flatMap((body) => [JSON.parse(body)].flat() as Array<Record<string, unknown>>),
    sessionIds: () => [...ids],
  };
}

/** Every kind of message mcp-rt's client sends, once each, then a close. */
async function sendEverything(connection: MCPServerConnection): Promise<void> {
  await listTools(connection);
  await callTool(connection, { name: "echo", args: { message: "hi" } });
  await callTool(connection, { name: "slow", args: { ms: 50, steps: 2 }, onProgress: () => {} });
  const controller = new AbortController();
  const aborted = await callTool(connection, {
    name: "slow",
    args: { ms: 20_000, steps: 100 },
    signal: controller.signal,
    onProgress: () => controller.abort(),
  }).catch((error: unknown) => error);
  expect(aborted).toMatchObject({ name: "AbortError" });
  await callTool(connection, { name: "ask" });
  const [resource] = await listResources(connection);
  await listResourceTemplates(connection);
  await readResource(connection, { uri: resource?.uri ?? "fixture://notes/first" });
  await subscribeResource(connection, { uri: "fixture://notes/first" }).catch(() => {});
  await unsubscribeResource(connection, { uri: "fixture://notes/first" }).catch(() => {});
  await listPrompts(connection);
  await getPrompt(connection, { name: "greet", args: { who: "you" } });
  await ping(connection);
  await closeConnection(connection);
}

/** What no `_meta` or `clientInfo` may hold: this host, this user, their folders. */
function hostFacts(cwd: string): string[] {
  return [hostname(), userInfo().username, homedir(), process.cwd(), cwd, tmpdir(), localUser()];
}

/** Whether `fact` occurs in `text` as a whole word (a user `root` is not the capability `roots`). */
function mentions(text: string, fact: string): boolean {
  const escaped = fact.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
  return new RegExp(`(^|[^A-Za-z0-9_])${escaped}($|[^A-Za-z0-9_])`).test(text);
}

const wires: Array<[string, Era, () => Promise<Wire> | Wire]> = [
  ["stdio", "legacy", () => stdioWire("legacy")],
  ["stdio", "modern", () => stdioWire("modern")],
  ["Streamable HTTP", "legacy", () => httpWire("legacy", "http")],
  ["Streamable HTTP", "modern", () => httpWire("modern", "http")],
  ["SSE", "legacy", () => httpWire("legacy", "sse")],
];

describe.each(wires)("what mcp-rt sends over %s, %s era", (transport, era, makeWire) => {
  it("carries in _meta only what the protocol needs, in clientInfo only mcp-rt's name and version", async () => {
    const wire = await makeWire();
    const cwd = tempDir();
    const asked: MCPElicitationRequest[] = [];
    const connection = await connectToServer({
      name: "recorded",
      config: wire.config,
      cwd,
      onElicitation: (request) => {
        asked.push(request);
        return { action: "accept", content: { name: "N" } };
      },
    });
    expect(connection.era).toBe(era);
    await sendEverything(connection);
    expect(asked).toHaveLength(1);

    const sent = wire.sent();
    const methods = new Set(
      sent.flatMap((message) => (typeof message.method === "string" ? [message.method] : [])),
    );
    // The exercise reached every request kind: a test that sent less would prove less.
    for (const method of [
      "tools/list",
      "tools/call",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "prompts/list",
      "prompts/get",
      // Over 2026-07-28 HTTP an abort closes the request's stream instead.
      ...(era === "modern" && transport !== "stdio" ? [] : ["notifications/cancelled"]),
      // A modern server has no `ping`: server/discover stands in for it.
      ...(era === "modern"
        ? ["server/discover", "subscriptions/listen"]
        : ["initialize", "notifications/initialized", "ping"]),
    ]) {
      expect(methods, method).toContain(method);
    }

    const capabilities = { roots: {}, elicitation: { form: {}, url: {} } };
    const leaks: string[] = [];
    for (const message of sent) {
      const params = (message.params ?? message.result ?? {}) as Record<string, unknown>;
      const label = String(message.method ?? `response to ${String(message.id)}`);
      if (params.clientInfo !== undefined) expect(params.clientInfo, label).toEqual(CLIENT_INFO);
      const meta = params._meta as Record<string, unknown> | undefined;
      if (meta === undefined) continue;
      for (const [key, value] of Object.entries(meta)) {
        switch (key) {
          case "progressToken":
            expect(typeof value === "number" || typeof value === "string", label).toBe(true);
            break;
          case PROTOCOL_VERSION_META_KEY:
            expect(value, label).toBe("2026-07-28");
            break;
          case CLIENT_INFO_META_KEY:
            expect(value, label).toEqual(CLIENT_INFO);
            break;
          case CLIENT_CAPABILITIES_META_KEY:
            expect(value, label).toEqual(capabilities);
            break;
          default:
            leaks.push(`${label}: _meta.${key} = ${JSON.stringify(value)}`);
        }
      }
      const shown = JSON.stringify({ meta, clientInfo: params.clientInfo });
      for (const fact of [...hostFacts(cwd), ...wire.sessionIds()]) {
        if (fact.length > 0 && mentions(shown, fact))
          leaks.push(`${label}: ${JSON.stringify(fact)} in ${shown}`);
      }
    }
    expect(leaks).toEqual([]);
    if (era === "modern") {
      // Every modern request carries the envelope, and so mcp-rt's name and version.
      const requests = sent.filter((message) => message.id !== undefined && message.method !== undefined);
      for (const request of requests) {
        const meta = (request.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
        expect(meta?.[CLIENT_INFO_META_KEY], String(request.method)).toEqual(CLIENT_INFO);
      }
    }
  });
});
