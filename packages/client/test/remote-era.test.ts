import type { IncomingMessage, ServerResponse } from "node:http";
import { callTool, isSignInRequired, type MCPEraVerdict } from "@mcp-rt/client";
import { createMemoryAuthStorage, type MCPHttpServerConfig } from "@mcp-rt/config";
import { startHttpFixture } from "@mcp-rt/testing";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod/v4";
import { textOf, useConnections } from "./helpers.js";
import { checkNoPortsLeftAfterFile, useTestServers } from "./http-test-servers.js";
import { rejection, useOAuthKit } from "./oauth-helpers.js";

checkNoPortsLeftAfterFile();
const kit = useOAuthKit();
const { server, proxy } = useTestServers();
const fixtures: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});
// Registered after the servers' hooks, so connections close first.
const { connect, connectError } = useConnections();

const SOURCE = "/home/u/.mcp-rt/mcp.json";

/** The JSON-RPC method of a POST body, if it is one. */
function rpcMethod(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { method?: string }).method;
  } catch {
    return undefined;
  }
}

/** A server built on the SDK v2's `createMcpHandler` with one `add` tool: modern-only (`reject`) or dual-era. */
async function eraServer(legacy: "reject" | "stateless") {
  const handler = createMcpHandler(
    () => {
      const mcp = new McpServer({ name: `era-${legacy}`, version: "1.0.0" });
      mcp.registerTool(
        "add",
        { description: "Adds two numbers", inputSchema: z.object({ a: z.number(), b: z.number() }) },
        async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
      );
      return mcp;
    },
    { legacy },
  );
  const methods: (string | undefined)[] = [];
  const http = await server((req, res, body) => {
    if (req.method === "POST") methods.push(rpcMethod(body));
    void serveWeb(handler.fetch, req, res, body);
  });
  return { url: `${http.origin}/mcp`, methods };
}

/** Hands a Node request to a web-standard handler and writes its response as it streams. */
async function serveWeb(
  fetch: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
  }
  const method = req.method ?? "GET";
  const request = new Request(`http://127.0.0.1${req.url ?? "/"}`, {
    method,
    headers,
    ...(method === "POST" ? { body } : {}),
  });
  try {
    const response = await fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) for await (const chunk of response.body) res.write(chunk);
  } catch {
    if (!res.headersSent) res.writeHead(500);
  }
  res.end();
}

/**
 * The fixture of @mcp-rt/testing (a legacy-entry SDK v2 server, sessions and
 * all) behind a recording proxy; `probeStatus` answers every server/discover
 * with that status, `everything` answers every POST with it.
 */
async function legacyServer(options: { probeStatus?: number; everything?: number } = {}) {
  const fixture = await startHttpFixture({ tools: 1 });
  fixtures.push(fixture);
  const methods: (string | undefined)[] = [];
  const front = await proxy(new URL(fixture.url).origin, {
    intercept(req, res, body) {
      if (req.method !== "POST") return false;
      const method = rpcMethod(body);
      methods.push(method);
      const status = options.everything ?? (method === "server/discover" ? options.probeStatus : undefined);
      if (status === undefined) return false;
      res.writeHead(status, { "content-type": "text/plain" }).end("upstream exploded");
      return true;
    },
  });
  const config: MCPHttpServerConfig = { type: "http", url: `${front.origin}/mcp` };
  return { config, methods, fixture };
}

const count = (methods: (string | undefined)[], method: string): number =>
  methods.filter((one) => one === method).length;

describe("the era of a Streamable HTTP server", () => {
  it('"auto" lands modern on a modern-only server: no initialize, and a tool call works', async () => {
    const modern = await eraServer("reject");
    const connection = await connect({ name: "modern", config: { type: "http", url: modern.url } });
    expect(connection.era).toBe("modern");
    expect(connection.protocolVersion).toBe("2026-07-28");
    expect(connection.eraDecision.how).toBe("probe");
    expect(connection.eraDecision.text).toContain("offering 2026-07-28");
    expect(connection.eraVerdict).toMatchObject({ era: "modern", protocolVersion: "2026-07-28" });
    expect(connection.eraVerdict.discover).toMatchObject({ supportedVersions: ["2026-07-28"] });
    expect(textOf(await callTool(connection, { name: "add", args: { a: 2, b: 3 } }))).toBe("5");
    expect(modern.methods[0]).toBe("server/discover");
    expect(count(modern.methods, "initialize")).toBe(0);
  });

  it('"auto" lands modern on a dual-era server too', async () => {
    const dual = await eraServer("stateless");
    const connection = await connect({ name: "dual", config: { url: dual.url } });
    expect(connection.era).toBe("modern");
    expect(connection.transport).toBe("http");
    expect(textOf(await callTool(connection, { name: "add", args: { a: 1, b: 1 } }))).toBe("2");
    expect(count(dual.methods, "initialize")).toBe(0);
  });

  it('"2026-07-28" connects a modern-only server, as a setting', async () => {
    const modern = await eraServer("reject");
    const connection = await connect({
      name: "modern",
      config: { type: "http", url: modern.url, protocol: "2026-07-28" },
    });
    expect(connection.era).toBe("modern");
    expect(connection.eraDecision.how).toBe("setting");
    expect(textOf(await callTool(connection, { name: "add", args: { a: 20, b: 22 } }))).toBe("42");
  });

  it('"auto" lands legacy on the legacy fixture with one extra round trip and no error', async () => {
    const legacy = await legacyServer();
    const connection = await connect({ name: "legacy", config: legacy.config });
    expect(connection.era).toBe("legacy");
    expect(connection.protocolVersion).toBe("2025-11-25");
    expect(connection.eraVerdict).toEqual({
      era: "legacy",
      protocolVersion: "2025-11-25",
      decidedAt: expect.any(Number),
    });
    expect(connection.eraDecision.how).toBe("probe");
    // The fixture answers a POST without a session with 400 and a -32000 body: not a modern error.
    expect(connection.eraDecision.text).toContain("HTTP 400");
    expect(connection.eraDecision.text).toContain("legacy era");
    expect(legacy.methods.slice(0, 3)).toEqual([
      "server/discover",
      "initialize",
      "notifications/initialized",
    ]);
    expect(count(legacy.methods, "server/discover")).toBe(1);
  });

  it('"2026-07-28" fails on a legacy server with an error that says what to change', async () => {
    const legacy = await legacyServer();
    const error = await connectError({
      name: "old",
      config: { ...legacy.config, protocol: "2026-07-28" },
      sourcePath: SOURCE,
    });
    expect(error.code).toBe("INIT_FAILED");
    expect(error.server).toBe("old");
    expect(error.message).toBe(
      `Connection to MCP server "old" failed: it does not speak MCP 2026-07-28 (it answered server/discover with HTTP 400 (-32000 "Bad Request: no session; send initialize first")); set "protocol" to "auto" or "legacy" in ${SOURCE}`,
    );
    expect(legacy.methods).toEqual(["server/discover"]);
  });

  it('"2026-07-28" with type "sse" is a config error: SSE has no modern era', async () => {
    const nobody = await server((_req, res) => void res.writeHead(500).end());
    const error = await connectError({
      name: "sse",
      config: { type: "sse", url: `${nobody.origin}/sse`, protocol: "2026-07-28" },
      sourcePath: SOURCE,
    });
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain(`set "type" to "http", or "protocol" to "auto" or "legacy" in ${SOURCE}`);
    expect(nobody.requests).toEqual([]);
  });

  it('"legacy" sends no server/discover', async () => {
    const legacy = await legacyServer();
    const connection = await connect({ name: "legacy", config: { ...legacy.config, protocol: "legacy" } });
    expect(connection.era).toBe("legacy");
    expect(connection.eraDecision).toEqual({
      how: "setting",
      text: 'protocol is "legacy": initialize (2025-11-25)',
    });
    expect(legacy.methods[0]).toBe("initialize");
    expect(count(legacy.methods, "server/discover")).toBe(0);
  });

  it("a 500 to the probe is retried once as legacy: connected, and the fallback is noted", async () => {
    const legacy = await legacyServer({ probeStatus: 500 });
    const connection = await connect({ name: "flaky", config: legacy.config });
    expect(connection.era).toBe("legacy");
    expect(connection.eraDecision.how).toBe("fallback");
    expect(connection.eraDecision.text).toContain("HTTP 500");
    expect(legacy.methods.slice(0, 2)).toEqual(["server/discover", "initialize"]);
    expect(count(legacy.methods, "server/discover")).toBe(1);
  });

  it("a server that answers everything with 500 fails with an error naming the status, after one retry", async () => {
    const legacy = await legacyServer({ everything: 500 });
    const error = await connectError({ name: "down", config: legacy.config });
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.message).toContain("answered HTTP 500");
    expect(error.message).toContain("server/discover had been answered with HTTP 500");
    expect(error.details).toMatchObject({ status: 500, probeStatus: 500 });
    expect(legacy.methods).toEqual(["server/discover", "initialize"]);
  });

  it("a stored modern verdict connects with no server/discover at all", async () => {
    const modern = await eraServer("reject");
    const first = await connect({ name: "modern", config: { type: "http", url: modern.url } });
    const verdict: MCPEraVerdict = { ...first.eraVerdict, decidedAt: Date.UTC(2026, 10, 1) };
    modern.methods.length = 0;
    const warm = await connect({ name: "modern", config: { type: "http", url: modern.url }, prior: verdict });
    expect(warm.era).toBe("modern");
    expect(warm.eraDecision.how).toBe("stored");
    expect(warm.eraDecision.text).toMatch(/^a verdict stored \d+ days ago says 2026-07-28; no probe sent$/);
    expect(warm.eraVerdict.decidedAt).toBe(Date.UTC(2026, 10, 1));
    expect(textOf(await callTool(warm, { name: "add", args: { a: 4, b: 4 } }))).toBe("8");
    expect(count(modern.methods, "server/discover")).toBe(0);
  });

  it("a stored legacy verdict goes straight to initialize", async () => {
    const legacy = await legacyServer();
    const prior: MCPEraVerdict = { era: "legacy", protocolVersion: "2025-11-25", decidedAt: Date.now() };
    const connection = await connect({ name: "legacy", config: legacy.config, prior });
    expect(connection.era).toBe("legacy");
    expect(connection.eraDecision.how).toBe("stored");
    expect(count(legacy.methods, "server/discover")).toBe(0);
  });

  it("a stored legacy verdict that a now modern-only server refuses is probed again, once", async () => {
    const modern = await eraServer("reject");
    const prior: MCPEraVerdict = { era: "legacy", protocolVersion: "2025-11-25", decidedAt: Date.now() };
    const connection = await connect({ name: "upgraded", config: { url: modern.url }, prior });
    expect(connection.era).toBe("modern");
    expect(connection.transport).toBe("http");
    expect(connection.eraDecision.how).toBe("probe");
    expect(connection.eraDecision.text).toContain("the stored verdict (2025-11-25 (legacy)) no longer fits");
    expect(modern.methods.slice(0, 2)).toEqual(["initialize", "server/discover"]);
    expect(count(modern.methods, "server/discover")).toBe(1);
    expect(textOf(await callTool(connection, { name: "add", args: { a: 1, b: 2 } }))).toBe("3");
  });
});

describe("the era probe and OAuth", () => {
  it("a 401 to the probe is a sign-in, never era evidence", async () => {
    const fixture = await kit.fixture();
    const error = await rejection(
      connect({ name: "linear", config: fixture.config(), oauth: kit.oauth(createMemoryAuthStorage()) }),
    );
    expect(error.code).toBe("SIGN_IN_REQUIRED");
    expect(isSignInRequired(error)).toBe(true);
    expect(fixture.counts.unauthorized).toBe(1);
  });

  it("interactive: the 401 to the probe runs the sign-in, and the era is decided after it", async () => {
    const fixture = await kit.fixture();
    const connection = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(createMemoryAuthStorage(), { interactive: true }),
    });
    expect(kit.browser.visits).toHaveLength(1);
    expect(connection.era).toBe("legacy");
    expect(connection.eraDecision.how).toBe("probe");
    expect(connection.eraDecision.text).toContain("HTTP 400");
    expect(connection.eraDecision.text).not.toContain("401");
  });
});
