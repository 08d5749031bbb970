import type { IncomingMessage, ServerResponse } from "node:http";
import {
  callTool,
  closeConnection,
  connectToServer,
  listTools,
  type MCPServerConnection,
} from "@mcp-rt/client";
import { McpRtError } from "@mcp-rt/config";
import { startHttpFixture } from "@mcp-rt/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  checkNoPortsLeftAfterFile,
  type EverythingServer,
  freePort,
  startEverything,
  startHttpServer,
  startProxy,
  type TestHttpServer,
} from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const SOURCE = "/home/me/project/.mcp.json";
const servers: TestHttpServer[] = [];
const connections: MCPServerConnection[] = [];

async function server(handler: Parameters<typeof startHttpServer>[0]): Promise<TestHttpServer> {
  const started = await startHttpServer(handler);
  servers.push(started);
  return started;
}

async function proxy(target: string, options?: Parameters<typeof startProxy>[1]): Promise<TestHttpServer> {
  const started = await startProxy(target, options);
  servers.push(started);
  return started;
}

async function connect(...args: Parameters<typeof connectToServer>): Promise<MCPServerConnection> {
  const connection = await connectToServer(...args);
  connections.push(connection);
  return connection;
}

async function connectError(...args: Parameters<typeof connectToServer>): Promise<McpRtError> {
  const error = await connectToServer(...args).then(
    (connection) => {
      connections.push(connection);
      throw new Error(`expected a failure, got a connection over ${connection.transport}`);
    },
    (e: unknown) => e,
  );
  expect(McpRtError.isInstance(error)).toBe(true);
  return error as McpRtError;
}

function rpcMethod(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { method?: string }).method;
  } catch {
    return undefined;
  }
}

let everything: EverythingServer;
let everythingSse: EverythingServer;
beforeAll(async () => {
  [everything, everythingSse] = await Promise.all([
    startEverything("streamableHttp"),
    startEverything("sse"),
  ]);
});
afterAll(async () => {
  await Promise.all([everything?.close(), everythingSse?.close()]);
});
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => closeConnection(connection)));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("HTTP error statuses", () => {
  it("maps a 500 at connect to HTTP_ERROR with the status and the head of the body", async () => {
    const broken = await server((_req, res) => {
      res.writeHead(500, { "content-type": "text/plain" }).end("database exploded\n    at line 3\n");
    });
    const url = `${broken.origin}/mcp`;
    const error = await connectError("broken", { type: "http", url }, { sourcePath: SOURCE });
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.server).toBe("broken");
    expect(error.message).toBe(
      `Connection to MCP server "broken" failed: POST ${url} answered HTTP 500 Internal Server Error: database exploded at line 3 (a failure on the server's side: see its logs, or try again later)`,
    );
    expect(error.details).toMatchObject({
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
    const error = await connectError("verbose", { type: "http", url: `${verbose.origin}/mcp` });
    expect(error.code).toBe("HTTP_ERROR");
    const body = (error.details as { body: string }).body;
    expect(body.length).toBe(500);
    expect(body.endsWith("…")).toBe(true);
    expect(error.message.length).toBeLessThan(800);
  });

  it("does not fall back to SSE on a 5xx: the server speaks Streamable HTTP and is broken", async () => {
    const broken = await server((_req, res) => {
      res.writeHead(503).end("maintenance");
    });
    const error = await connectError("broken", { url: `${broken.origin}/mcp` });
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.details).toMatchObject({ status: 503, body: "maintenance" });
    expect(broken.requests.map((r) => r.method)).toEqual(["POST"]);
  });

  it("names the url for a 404 at connect", async () => {
    const empty = await server((_req, res) => {
      res.writeHead(404).end();
    });
    const error = await connectError(
      "lost",
      { type: "http", url: `${empty.origin}/nope` },
      { sourcePath: SOURCE },
    );
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.message).toBe(
      `Connection to MCP server "lost" failed: POST ${empty.origin}/nope answered HTTP 404 Not Found (check "url" in ${SOURCE})`,
    );
  });

  it("maps a 500 on a call to HTTP_ERROR, and the connection stays usable", async () => {
    let failNextCall = false;
    const front = await proxy(new URL(everything.url).origin, {
      intercept: (req: IncomingMessage, res: ServerResponse, body: string) => {
        if (req.method !== "POST" || rpcMethod(body) !== "tools/call" || !failNextCall) return false;
        failNextCall = false;
        res.writeHead(500, { "content-type": "application/json" }).end('{"error":"upstream timeout"}');
        return true;
      },
    });
    const connection = await connect("flaky", { type: "http", url: `${front.origin}/mcp` });
    failNextCall = true;
    const error = await callTool(connection, "echo", { message: "x" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "McpRtError", code: "HTTP_ERROR", server: "flaky" });
    expect((error as Error).message).toBe(
      `The call of tool "echo" to MCP server "flaky" failed: POST ${front.origin}/mcp answered HTTP 500 Internal Server Error: {"error":"upstream timeout"} (a failure on the server's side: see its logs, or try again later)`,
    );
    expect(connection.closed).toBe(false);
    expect((await callTool(connection, "echo", { message: "again" })).content).toEqual([
      { type: "text", text: "Echo: again" },
    ]);
  });

  it("maps a 401 to AUTH_REQUIRED with the WWW-Authenticate header, without falling back", async () => {
    const challenge = 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"';
    const guarded = await server((_req, res) => {
      res.writeHead(401, { "www-authenticate": challenge }).end();
    });
    const error = await connectError("guarded", { url: `${guarded.origin}/mcp` }, { sourcePath: SOURCE });
    expect(error.code).toBe("AUTH_REQUIRED");
    expect(error.details).toMatchObject({ status: 401, wwwAuthenticate: challenge });
    expect(error.message).toContain(`set the credentials in "headers" or "auth" in ${SOURCE}`);
    expect(guarded.requests.map((r) => r.method)).toEqual(["POST"]);
  });

  it("maps a 403 on a call to AUTH_REQUIRED", async () => {
    const front = await proxy(new URL(everything.url).origin, {
      intercept: (req, res, body) => {
        if (req.method !== "POST" || rpcMethod(body) !== "tools/call") return false;
        res.writeHead(403, { "www-authenticate": 'Bearer error="insufficient_scope"' }).end("forbidden");
        return true;
      },
    });
    const connection = await connect("scoped", { type: "http", url: `${front.origin}/mcp` });
    const error = await callTool(connection, "echo", { message: "x" }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "AUTH_REQUIRED",
      details: { status: 403, wwwAuthenticate: 'Bearer error="insufficient_scope"' },
    });
    expect((error as Error).message).toContain("the credentials were refused");
  });

  it("maps an SSE message POST failure to HTTP_ERROR", async () => {
    const front = await proxy(new URL(everythingSse.url).origin, {
      intercept: (req, res, body) => {
        if (req.method !== "POST" || rpcMethod(body) !== "tools/call") return false;
        res.writeHead(500).end("boom");
        return true;
      },
    });
    const connection = await connect("sse-flaky", { type: "sse", url: `${front.origin}/sse` });
    const error = await callTool(connection, "echo", { message: "x" }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "HTTP_ERROR",
      details: { status: 500, method: "POST", body: "boom" },
    });
  });
});

describe("unreachable, slow and wrong servers", () => {
  it("reports a refused connection as HTTP_ERROR naming the address, without falling back", async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const error = await connectError("down", { url }, { sourcePath: SOURCE });
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
      const error = await connectError(
        "slow",
        { type, url: `${hanging.origin}/mcp`, timeout: 500 },
        { sourcePath: SOURCE },
      );
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
    const error = await connectError("slow", { url: `${hanging.origin}/mcp` }, { signal: controller.signal });
    expect(error.code).toBe("ABORTED");
    expect(error.message).toBe('Connection to MCP server "slow" was aborted');
  });

  it("explains a URL that answers HTML instead of MCP", async () => {
    await using html = await startHttpFixture({ garbageStdout: true });
    const error = await connectError("website", { type: "http", url: html.url });
    expect(error.code).toBe("INIT_FAILED");
    expect(error.message).toContain(`is ${html.url} an MCP endpoint?`);
  });
});

describe("headers", () => {
  it("that HTTP cannot carry are CONFIG_INVALID before anything is sent", async () => {
    const nobody = await server((_req, res) => {
      res.writeHead(500).end();
    });
    const url = `${nobody.origin}/mcp`;
    const badName = await connectError("bad", { url, headers: { "bad name": "x" } }, { sourcePath: SOURCE });
    expect(badName.code).toBe("CONFIG_INVALID");
    expect(badName.message).toBe(
      `MCP server "bad" has invalid "headers": headers.bad name: not a valid HTTP header name or value (fix it in ${SOURCE})`,
    );
    const notString = await connectError("bad", {
      url,
      headers: { "X-Count": 3 } as unknown as Record<string, string>,
    });
    expect(notString.message).toContain("headers.X-Count: expected a string, got number");
    expect(nobody.requests).toEqual([]);
  });

  it("go with every Streamable HTTP request (POST, GET, DELETE), without forging protocol headers", async () => {
    const front = await proxy(new URL(everything.url).origin);
    const connection = await connectToServer("everything", {
      type: "http",
      url: `${front.origin}/mcp`,
      headers: { "X-Api-Key": "k-123", "X-Trace": "trace-1", "Mcp-Session-Id": "forged" },
    });
    await listTools(connection);
    await callTool(connection, "echo", { message: "x" });
    await closeConnection(connection);

    const methods = new Set(front.requests.map((r) => r.method));
    expect(methods).toEqual(new Set(["POST", "GET", "DELETE"]));
    for (const request of front.requests) {
      expect(request.headers["x-api-key"]).toBe("k-123");
      expect(request.headers["x-trace"]).toBe("trace-1");
    }
    // The initialize POST carries no session id; later ones carry the server's, never the config's.
    expect(front.requests[0]?.headers["mcp-session-id"]).toBeUndefined();
    const sessionIds = new Set(front.requests.slice(1).map((r) => r.headers["mcp-session-id"]));
    expect(sessionIds.size).toBe(1);
    expect(sessionIds.has("forged")).toBe(false);
  });

  it("go with the SSE stream and every message POST", async () => {
    const front = await proxy(new URL(everythingSse.url).origin);
    const connection = await connect("everything", {
      type: "sse",
      url: `${front.origin}/sse`,
      headers: { "X-Api-Key": "k-sse" },
    });
    await callTool(connection, "echo", { message: "x" });
    expect(front.requests.map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual(
      expect.arrayContaining(["GET /sse", "POST /message"]),
    );
    for (const request of front.requests) expect(request.headers["x-api-key"]).toBe("k-sse");
  });
});

describe("redirects", () => {
  it.each(["http", "sse"] as const)(
    "to another origin are not followed over %s, so headers do not leak",
    async (type) => {
      const elsewhere = await server((_req, res) => {
        res.writeHead(200).end();
      });
      const redirecting = await server((_req, res) => {
        res.writeHead(307, { location: `${elsewhere.origin}/mcp` }).end();
      });
      const error = await connectError(
        "moved",
        {
          type,
          url: `${redirecting.origin}/mcp`,
          headers: { Authorization: "Bearer secret", "X-Api-Key": "k" },
        },
        { sourcePath: SOURCE },
      );
      expect(elsewhere.requests).toEqual([]);
      expect(error.code).toBe("HTTP_ERROR");
      expect(error.details).toMatchObject({ status: 307, location: `${elsewhere.origin}/mcp` });
      expect(error.message).toContain(
        `answered HTTP 307 Temporary Redirect to ${elsewhere.origin}/mcp, which is not followed`,
      );
      expect(error.message).toContain(`put the new address in "url" in ${SOURCE}`);
    },
  );

  it("within the origin are followed, headers included", async () => {
    const target = new URL(everything.url).origin;
    const front = await proxy(target, {
      intercept: (req, res) => {
        if (!req.url?.startsWith("/old")) return false;
        res.writeHead(308, { location: "/mcp" }).end();
        return true;
      },
    });
    const connection = await connect("moved", {
      type: "http",
      url: `${front.origin}/old`,
      headers: { "X-Api-Key": "k-moved" },
    });
    expect((await callTool(connection, "echo", { message: "followed" })).content).toEqual([
      { type: "text", text: "Echo: followed" },
    ]);
    const reached = front.requests.filter((r) => r.path === "/mcp");
    expect(reached.length).toBeGreaterThan(0);
    for (const request of reached) expect(request.headers["x-api-key"]).toBe("k-moved");
  });
});
