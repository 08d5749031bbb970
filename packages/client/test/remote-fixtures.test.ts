import {
  callTool,
  listTools,
  type MCPConnectionCloseEvent,
  type MCPProgress,
  type MCPServerConnection,
} from "@mcp-rt/client";
import type { McpRtError } from "@mcp-rt/config";
import { type HttpFixture, startHttpFixture } from "@mcp-rt/testing";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { useConnections } from "./helpers.js";
import { checkNoPortsLeftAfterFile, useTestServers } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const fixtures: HttpFixture[] = [];

async function fixture(options: Parameters<typeof startHttpFixture>[0]): Promise<HttpFixture> {
  const started = await startHttpFixture(options);
  fixtures.push(started);
  return started;
}

function nextClose(connection: MCPServerConnection): Promise<MCPConnectionCloseEvent> {
  return new Promise((resolve) => connection.onClose(resolve));
}

afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((server) => server.close()));
});
// Registered after the fixtures' hook, so proxies stop first, and connections before them.
const { proxy: startProxy } = useTestServers();
const { connect, connectError } = useConnections();

describe.each(["http", "sse"] as const)("@mcp-rt/testing fixtures over %s", (transport) => {
  it("connects with the fixture's config, pages through the tools and calls one", async () => {
    const server = await fixture({ transport, tools: 25, pageSize: 10, name: `fixture-${transport}` });
    expect(server.config.type).toBe(transport);
    const connection = await connect({ name: "fixture", config: server.config });
    expect(connection.transport).toBe(transport);
    expect(connection.serverInfo.name).toBe(`fixture-${transport}`);
    const tools = await listTools(connection);
    expect(tools).toHaveLength(26);
    const result = await callTool(connection, { name: "tool_24", args: { input: "x" } });
    expect(result.content).toEqual([{ type: "text", text: "tool_24: x" }]);
  });

  it("streams progress and cancels a call on the server when it is aborted", async () => {
    const server = await fixture({ transport, slowTool: true });
    const connection = await connect({ name: "fixture", config: server.config });
    const progress: MCPProgress[] = [];
    const done = await callTool(connection, {
      name: "slow",
      args: { ms: 300, steps: 3 },
      onProgress: (p) => progress.push(p),
    });
    expect(done.content).toEqual([{ type: "text", text: "slow done: 300 ms in 3 steps" }]);
    expect(progress.map((p) => p.progress).slice(0, 2)).toEqual([1, 2]);

    const controller = new AbortController();
    const error = await callTool(connection, {
      name: "slow",
      args: { ms: 20_000, steps: 100 },
      signal: controller.signal,
      onProgress: () => controller.abort(),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AbortError" });
    // The server received notifications/cancelled and stopped the work.
    await expect
      .poll(() => server.stderr(), { timeout: 5000 })
      .toMatch(/slow cancelled after 1 of 100 steps/);
  });

  it("sends the config's headers: a server that wants a bearer token accepts them", async () => {
    const server = await fixture({ transport, bearerToken: "s3cret" });
    const connection = await connect({
      name: "guarded",
      config: {
        ...server.config,
        headers: { Authorization: "Bearer s3cret" },
      },
    });
    expect((await callTool(connection, { name: "echo", args: { message: "authorized" } })).content).toEqual([
      { type: "text", text: "authorized" },
    ]);
  });

  it("hands an authProvider to the SDK transport, whose tokens the server receives", async () => {
    const server = await fixture({ transport, bearerToken: "oauth-token" });
    const saved: unknown[] = [];
    const authProvider: OAuthClientProvider = {
      redirectUrl: "http://127.0.0.1/callback",
      clientMetadata: { redirect_uris: ["http://127.0.0.1/callback"] },
      clientInformation: () => undefined,
      tokens: () => ({ access_token: "oauth-token", token_type: "Bearer" }),
      saveTokens: (tokens) => {
        saved.push(tokens);
      },
      redirectToAuthorization: () => {
        throw new Error("no authorization flow expected");
      },
      saveCodeVerifier: () => {},
      codeVerifier: () => "",
    };
    const connection = await connect({ name: "oauth", config: server.config, authProvider });
    expect((await callTool(connection, { name: "echo", args: { message: "with a token" } })).content).toEqual(
      [{ type: "text", text: "with a token" }],
    );
    expect(saved).toEqual([]);
  });

  it("maps a 401 to AUTH_REQUIRED carrying WWW-Authenticate", async () => {
    const server = await fixture({ transport, bearerToken: "s3cret" });
    const error = await connectError({
      name: "guarded",
      config: { ...server.config, headers: { Authorization: "Bearer wrong" } },
      sourcePath: "/p/.mcp.json",
    });
    expect(error.code).toBe("AUTH_REQUIRED");
    expect(error.server).toBe("guarded");
    expect(error.details).toMatchObject({
      status: 401,
      wwwAuthenticate: 'Bearer error="invalid_token"',
      method: transport === "http" ? "POST" : "GET",
      url: server.url,
      body: "Unauthorized",
    });
    expect(error.message).toBe(
      `Connection to MCP server "guarded" failed: authorization required (${transport === "http" ? "POST" : "GET"} ${server.url} answered HTTP 401 Unauthorized: Unauthorized); set the credentials in "headers" or "auth" in /p/.mcp.json`,
    );
  });

  it("reports the server going away through onClose, and later calls fail with TRANSPORT_CLOSED", async () => {
    const server = await fixture({ transport });
    const connection = await connect({ name: "fragile", config: server.config });
    const closed = nextClose(connection);
    const killedAt = Date.now();
    await server.close();
    const event = await closed;
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(event.expected).toBe(false);
    expect(event.reason).toMatch(/^MCP server "fragile" stopped: /);
    expect(event.error).toMatchObject({ code: "TRANSPORT_CLOSED", server: "fragile" });
    expect(connection.closed).toBe(true);
    await expect(callTool(connection, { name: "echo", args: { message: "x" } })).rejects.toMatchObject({
      code: "TRANSPORT_CLOSED",
    });
  });

  it("reports a server that dies during a call, then closes the connection", async () => {
    const server = await fixture({ transport, crashOnCall: true });
    const connection = await connect({ name: "crashy", config: server.config });
    const closed = nextClose(connection);
    const error = (await callTool(connection, { name: "crash", args: {} }).catch(
      (e: unknown) => e,
    )) as McpRtError;
    if (transport === "http") {
      // The POST's response stream is cut; whether the server is gone is found out next.
      expect(error.code).toBe("HTTP_ERROR");
      expect(error.message).toMatch(
        /^The call of tool "crash" to MCP server "crashy" failed: the network connection broke mid-request \(.+\); the server may have crashed or restarted$/,
      );
    } else {
      expect(error.code).toBe("TRANSPORT_CLOSED");
      expect(error.message).toMatch(
        /^MCP server "crashy" closed the connection during the call of tool "crash": the SSE stream closed/,
      );
    }
    expect((await closed).error).toMatchObject({ code: "TRANSPORT_CLOSED", server: "crashy" });
  });
});

describe("a fixture URL without type", () => {
  it("falls back to SSE when the Streamable HTTP POST gets a 405", async () => {
    const server = await fixture({ transport: "sse" });
    const connection = await connect({ name: "legacy", config: { url: server.url } });
    expect(connection.transport).toBe("sse");
    expect((await callTool(connection, { name: "echo", args: { message: "old but gold" } })).content).toEqual(
      [{ type: "text", text: "old but gold" }],
    );
  });

  it("does not fall back on a 401: credentials are missing for both transports", async () => {
    const server = await fixture({ transport: "sse", bearerToken: "t" });
    const error = await connectError({ name: "legacy", config: { url: server.url } });
    expect(error.code).toBe("AUTH_REQUIRED");
    expect(error.details).toMatchObject({ status: 401, method: "POST" });
  });

  it("names both attempts when SSE fails too", async () => {
    const server = await fixture({ transport: "sse" });
    const error = await connectError({
      name: "wrong-path",
      config: { url: server.url.replace(/\/sse$/, "/nothing-here") },
    });
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.message).toContain("GET");
    expect(error.message).toContain("answered HTTP 404");
    expect(error.message).toContain("Streamable HTTP was tried first and answered HTTP 404");
    expect(error.details).toMatchObject({ status: 404, fallbackFrom: { kind: "http", status: 404 } });
  });
});

describe("a Streamable HTTP session the server lost", () => {
  it("surfaces as TRANSPORT_CLOSED and closes the connection", async () => {
    const server = await fixture({ transport: "http" });
    const proxy = await startProxy(new URL(server.url).origin);
    const connection = await connect({
      name: "forgetful",
      config: { type: "http", url: `${proxy.origin}/mcp` },
    });
    const sessionId = proxy.requests.find((r) => r.headers["mcp-session-id"])?.headers["mcp-session-id"];
    expect(typeof sessionId).toBe("string");
    const closed = nextClose(connection);

    // Behind the client's back, the session ends on the server (as after a restart).
    const deleted = await fetch(server.url, {
      method: "DELETE",
      headers: { "mcp-session-id": String(sessionId) },
    });
    expect(deleted.status).toBe(200);

    const error = await callTool(connection, { name: "echo", args: { message: "x" } }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: "McpRtError", code: "TRANSPORT_CLOSED", server: "forgetful" });
    expect((error as Error).message).toContain(`no longer knows session ${sessionId}`);
    const event = await closed;
    expect(event.expected).toBe(false);
    expect(event.error).toMatchObject({
      code: "TRANSPORT_CLOSED",
      details: { status: 404, sessionId },
    });
    expect(event.reason).toContain("reconnect to start a new one");
  });
});

describe("list-changed notifications over Streamable HTTP", () => {
  it("reach onToolsChanged", async () => {
    const server = await fixture({ transport: "http", listChanging: true });
    const connection = await connect({ name: "changing", config: server.config });
    const changed = new Promise<void>((resolve) => connection.onToolsChanged(resolve));
    await callTool(connection, { name: "add_tool", args: { name: "fresh" } });
    await changed;
    expect((await listTools(connection)).map((tool) => tool.name)).toContain("fresh");
  });
});
