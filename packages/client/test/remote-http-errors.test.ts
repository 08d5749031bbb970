import type { IncomingMessage, ServerResponse } from "node:http";
import { callTool } from "@mcp-rt/client";
import { startHttpFixture } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { useConnections } from "./helpers.js";
import {
  checkNoPortsLeftAfterFile,
  freePort,
  useEverythingServers,
  useTestServers,
} from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const SOURCE = "/home/me/project/.mcp.json";
const { server, proxy } = useTestServers();

function rpcMethod(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { method?: string }).method;
  } catch {
    return undefined;
  }
}

const everything = useEverythingServers();
// Registered after the servers' hook, so connections close first.
const { connect, connectError } = useConnections();

describe("HTTP error statuses", () => {
  it("maps a 500 at connect to HTTP_ERROR with the status and the head of the body", async () => {
    const broken = await server((_req, res) => {
      res.writeHead(500, { "content-type": "text/plain" }).end("database exploded\n    at line 3\n");
    });
    const url = `${broken.origin}/mcp`;
    const error = await connectError({ name: "broken", config: { type: "http", url }, sourcePath: SOURCE });
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.server).toBe("broken");
    // The server/discover probe got the 500 first, and the one legacy retry (initialize) got it again.
    expect(error.message).toBe(
      `Connection to MCP server "broken" failed: POST ${url} answered HTTP 500 Internal Server Error: database exploded at line 3 (a failure on the server's side: see its logs, or try again later); server/discover had been answered with HTTP 500`,
    );
    expect(error.details).toMatchObject({
      probeStatus: 500,
      status: 500,
      statusText: "Internal Server Error",
      method: "POST",
      url,
      body: "database exploded at line 3",
    });
  });

  it("keeps only the head of a long error body", async () => {
    const verbose = await server((_req, res) => {
      res.writeHead(502).end("x".repeat(100_000));
    });
    const error = await connectError({
      name: "verbose",
      config: { type: "http", url: `${verbose.origin}/mcp` },
    });
    expect(error.code).toBe("HTTP_ERROR");
    const body = (error.details as { body: string }).body;
    expect(body.length).toBe(500);
    expect(body.endsWith("…")).toBe(true);
    expect(error.message.length).toBeLessThan(800);
  });

  it("does not fall back to SSE on a 5xx: the server speaks Streamable HTTP and is broken", async () => {
    const methods: (string | undefined)[] = [];
    const broken = await server((_req, res, body) => {
      methods.push(rpcMethod(body));
      res.writeHead(503).end("maintenance");
    });
    const error = await connectError({ name: "broken", config: { url: `${broken.origin}/mcp` } });
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.details).toMatchObject({ status: 503, body: "maintenance" });
    // server/discover (503), then the one legacy retry's initialize (503); never a GET for SSE.
    expect(broken.requests.map((r) => r.method)).toEqual(["POST", "POST"]);
    expect(methods).toEqual(["server/discover", "initialize"]);
  });

  it("names the url for a 404 at connect", async () => {
    const empty = await server((_req, res) => {
      res.writeHead(404).end();
    });
    const error = await connectError({
      name: "lost",
      config: { type: "http", url: `${empty.origin}/nope` },
      sourcePath: SOURCE,
    });
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.message).toBe(
      `Connection to MCP server "lost" failed: POST ${empty.origin}/nope answered HTTP 404 Not Found (check "url" in ${SOURCE})`,
    );
  });

  it("maps a 500 on a call to HTTP_ERROR, and the connection stays usable", async () => {
    let failNextCall = false;
    const front = await proxy(new URL(everything.http.url).origin, {
      intercept: (req: IncomingMessage, res: ServerResponse, body: string) => {
        if (req.method !== "POST" || rpcMethod(body) !== "tools/call" || !failNextCall) return false;
        failNextCall = false;
        res.writeHead(500, { "content-type": "application/json" }).end('{"error":"upstream timeout"}');
        return true;
      },
    });
    const connection = await connect({ name: "flaky", config: { type: "http", url: `${front.origin}/mcp` } });
    failNextCall = true;
    const error = await callTool(connection, { name: "echo", args: { message: "x" } }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: "McpRtError", code: "HTTP_ERROR", server: "flaky" });
    expect((error as Error).message).toBe(
      `The call of tool "echo" to MCP server "flaky" failed: POST ${front.origin}/mcp answered HTTP 500 Internal Server Error: {"error":"upstream timeout"} (a failure on the server's side: see its logs, or try again later)`,
    );
    expect(connection.closed).toBe(false);
    expect((await callTool(connection, { name: "echo", args: { message: "again" } })).content).toEqual([
      { type: "text", text: "Echo: again" },
    ]);
  });

  it("maps a 401 to AUTH_REQUIRED with the WWW-Authenticate header, without falling back", async () => {
    const challenge = 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"';
    const guarded = await server((_req, res) => {
      res.writeHead(401, { "www-authenticate": challenge }).end();
    });
    const error = await connectError({
      name: "guarded",
      config: { url: `${guarded.origin}/mcp` },
      sourcePath: SOURCE,
    });
    expect(error.code).toBe("AUTH_REQUIRED");
    expect(error.details).toMatchObject({ status: 401, wwwAuthenticate: challenge });
    expect(error.message).toContain(`set the credentials in "headers" or "auth" in ${SOURCE}`);
    expect(guarded.requests.map((r) => r.method)).toEqual(["POST"]);
  });

  it("maps a 403 on a call to AUTH_REQUIRED", async () => {
    const front = await proxy(new URL(everything.http.url).origin, {
      intercept: (req, res, body) => {
        if (req.method !== "POST" || rpcMethod(body) !== "tools/call") return false;
        res.writeHead(403, { "www-authenticate": 'Bearer error="insufficient_scope"' }).end("forbidden");
        return true;
      },
    });
    const connection = await connect({
      name: "scoped",
      config: { type: "http", url: `${front.origin}/mcp` },
    });
    const error = await callTool(connection, { name: "echo", args: { message: "x" } }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: "AUTH_REQUIRED",
      details: { status: 403, wwwAuthenticate: 'Bearer error="insufficient_scope"' },
    });
    expect((error as Error).message).toContain("the credentials were refused");
  });

  it("maps an SSE message POST failure to HTTP_ERROR", async () => {
    const front = await proxy(new URL(everything.sse.url).origin, {
      intercept: (req, res, body) => {
        if (req.method !== "POST" || rpcMethod(body) !== "tools/call") return false;
        res.writeHead(500).end("boom");
        return true;
      },
    });
    const connection = await connect({
      name: "sse-flaky",
      config: { type: "sse", url: `${front.origin}/sse` },
    });
    const error = await callTool(connection, { name: "echo", args: { message: "x" } }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: "HTTP_ERROR",
      details: { status: 500, method: "POST", body: "boom" },
    });
  });
});

describe("unreachable, slow and wrong servers", () => {
  it("reports a refused connection as HTTP_ERROR naming the address, without falling back", async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const error = await connectError({ name: "down", config: { url }, sourcePath: SOURCE });
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.details).toMatchObject({ errno: "ECONNREFUSED", url });
    expect(error.message).toMatch(
      new RegExp(
        `^Connection to MCP server "down" failed: cannot reach ${url} \\(connect ECONNREFUSED [^)]+\\); is the server running\\? Check "url" in ${SOURCE}$`,
      ),
    );
  });

  it.each(["http", "sse"] as const)(
    "times out a %s server that never answers with CONNECT_TIMEOUT",
    async (type) => {
      const hanging = await server((_req, res) => {
        // SSE: the stream opens but the endpoint event never comes. HTTP: no answer at all.
        if (type === "sse") res.writeHead(200, { "content-type": "text/event-stream" }).write(": hello\n\n");
      });
      const started = Date.now();
      const error = await connectError({
        name: "slow",
        config: { type, url: `${hanging.origin}/mcp`, timeout: 500 },
        sourcePath: SOURCE,
      });
      expect(error.code).toBe("CONNECT_TIMEOUT");
      expect(error.message).toBe(
        `Connection to MCP server "slow" timed out after 500 ms (raise "timeout" in ${SOURCE})`,
      );
      expect(Date.now() - started).toBeLessThan(3000);
    },
  );

  it("aborts a pending connect with ABORTED", async () => {
    const hanging = await server(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const error = await connectError({
      name: "slow",
      config: { url: `${hanging.origin}/mcp` },
      signal: controller.signal,
    });
    expect(error.code).toBe("ABORTED");
    expect(error.message).toBe('Connection to MCP server "slow" was aborted');
  });

  it("explains a URL that answers HTML instead of MCP", async () => {
    await using html = await startHttpFixture({ garbageStdout: true });
    const error = await connectError({ name: "website", config: { type: "http", url: html.url } });
    expect(error.code).toBe("INIT_FAILED");
    expect(error.message).toContain(`is ${html.url} an MCP endpoint?`);
  });
});
