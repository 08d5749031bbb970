import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import type { AddressInfo } from "node:net";
import { errorMessage } from "@mcp-rt/config/util";
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import {
  connectFixture,
  createFixtureMcpServer,
  type FixtureHooks,
  type SharedTools,
} from "./fixture-mcp-server.js";
import type { FixtureCommandLine } from "./fixture-options.js";
import { readJson, sendWebResponse, toWebRequest } from "./node-http-bridge.js";
import { appendPidFileEntry } from "./pid-file.js";
import { SseServerTransport } from "./sse-server-transport.js";

/** Path of the Streamable HTTP endpoint. */
const MCP_PATH = "/mcp";
/** Paths of the legacy SSE transport: the event stream and where messages are posted. */
const SSE_PATH = "/sse";
const SSE_MESSAGES_PATH = "/messages";

function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** The methods of the requests in a POST body (one message or a batch). */
function requestMethods(body: unknown): string[] {
  return (Array.isArray(body) ? body : [body]).flatMap((message: unknown) => {
    const { method, id } = (message ?? {}) as { method?: unknown; id?: unknown };
    return typeof method === "string" && id !== undefined ? [method] : [];
  });
}

/**
 * Serves the fixture over HTTP on 127.0.0.1: Streamable HTTP with stateful
 * sessions at `/mcp`, or (`transport: "sse"`) the legacy SSE transport at
 * `/sse`. Prints `LISTENING <url>` on stdout once the port is bound. In the
 * `modern` era `/mcp` is the SDK's `createMcpHandler` with `legacy: "reject"`;
 * in `dual`, requests the SDK classifies as legacy go to the stateful sessions
 * and the others to that handler.
 */
export async function runHttpFixture(options: FixtureCommandLine, hooks: FixtureHooks): Promise<void> {
  const streamable = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const sse = new Map<string, SseServerTransport>();
  const serve = async (
    transport: WebStandardStreamableHTTPServerTransport,
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    parsedBody?: unknown,
  ): Promise<void> => {
    const response = await transport.handleRequest(
      toWebRequest(req, url),
      parsedBody === undefined ? {} : { parsedBody },
    );
    await sendWebResponse(res, response);
  };

  const era = options.era ?? "legacy";
  // Each modern request meets a new server: tools added at run time live here, and their changes go to the listen streams.
  const shared: SharedTools = { added: new Set(), changed: () => modern?.notify.toolsChanged() };
  const modern =
    era === "legacy"
      ? undefined
      : createMcpHandler(() => createFixtureMcpServer(options, { ...hooks, shared }), {
          legacy: "reject",
          onerror: (error) => hooks.log(errorMessage(error)),
        });

  const handleStreamable = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const body = req.method === "POST" ? await readJson(req) : undefined;
    const methods = body?.ok ? requestMethods(body.value) : [];
    for (const method of methods) {
      if (options.pidFile && method === "server/discover") appendPidFileEntry(options.pidFile, "probe");
      if (options.pidFile && method === "initialize") appendPidFileEntry(options.pidFile, "initialize");
      if (options.pidFile && method === "tools/list") appendPidFileEntry(options.pidFile, "list");
    }
    if (era === "legacy" && options.probeStatus !== undefined && methods.includes("server/discover")) {
      hooks.log(`answering server/discover with HTTP ${options.probeStatus} (--probe-status)`);
      res.writeHead(options.probeStatus, { "content-type": "text/plain" });
      res.end(STATUS_CODES[options.probeStatus] ?? "");
      return;
    }
    const notJson = (): void => sendJsonRpcError(res, 400, -32700, "Parse error: request body is not JSON");
    if (era === "modern" && body && !body.ok) return notJson();
    const parsedBody = body?.ok ? body.value : undefined;
    const toModern =
      modern &&
      body?.ok !== false &&
      (era === "modern" || !(await isLegacyRequest(toWebRequest(req, url), parsedBody)));
    if (toModern) {
      const response = await modern.fetch(
        toWebRequest(req, url),
        parsedBody === undefined ? {} : { parsedBody },
      );
      return sendWebResponse(res, response);
    }
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? streamable.get(sessionId) : undefined;
    if (typeof sessionId === "string" && !existing) {
      return sendJsonRpcError(res, 404, -32001, `Session not found: ${sessionId}`);
    }
    if (req.method !== "POST") {
      if (!existing) return sendJsonRpcError(res, 400, -32000, "Bad Request: missing mcp-session-id header");
      return serve(existing, req, res, url);
    }
    if (body && !body.ok) return notJson();
    if (existing) return serve(existing, req, res, url, parsedBody);
    if (!isInitializeRequest(parsedBody)) {
      const status = options.noSessionStatus ?? 400;
      return sendJsonRpcError(res, status, -32000, "Bad Request: no session; send initialize first");
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        streamable.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) streamable.delete(transport.sessionId);
    };
    await connectFixture(createFixtureMcpServer(options, hooks), transport, options, hooks);
    await serve(transport, req, res, url, parsedBody);
  };

  const handleSse = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    if (req.method === "GET" && url.pathname === SSE_PATH) {
      const transport = new SseServerTransport(SSE_MESSAGES_PATH, res);
      sse.set(transport.sessionId, transport);
      res.on("close", () => sse.delete(transport.sessionId));
      await connectFixture(createFixtureMcpServer(options, hooks), transport, options, hooks);
      return;
    }
    if (req.method === "POST" && url.pathname === SSE_MESSAGES_PATH) {
      const transport = sse.get(url.searchParams.get("sessionId") ?? "");
      if (!transport) return sendJsonRpcError(res, 404, -32001, "Session not found");
      const body = await readJson(req);
      if (!body.ok) return sendJsonRpcError(res, 400, -32700, "Parse error: request body is not JSON");
      return transport.handlePost(body.value, res);
    }
    res.writeHead(url.pathname === SSE_PATH ? 405 : 404).end();
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (options.bearerToken && req.headers.authorization !== `Bearer ${options.bearerToken}`) {
      res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"' }).end("Unauthorized");
      return;
    }
    if (options.garbageStdout) {
      res.writeHead(200, { "content-type": "text/html" }).end("<html>This is not an MCP server.</html>");
      return;
    }
    const handled =
      options.transport === "sse"
        ? handleSse(req, res, url)
        : url.pathname === MCP_PATH
          ? handleStreamable(req, res, url)
          : Promise.resolve(void res.writeHead(404).end());
    handled.catch((error: unknown) => {
      hooks.log(`request failed: ${errorMessage(error)}`);
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, "Internal error");
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const path = options.transport === "sse" ? SSE_PATH : MCP_PATH;
  process.stdout.write(`LISTENING http://127.0.0.1:${port}${path}\n`);
}
