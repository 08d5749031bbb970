import { callTool, closeConnection, connectToServer, listTools } from "@mcp-rt/client";
import { describe, expect, it } from "vitest";
import { useConnections } from "./helpers.js";
import { checkNoPortsLeftAfterFile, useEverythingServers, useTestServers } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const SOURCE = "/home/me/project/.mcp.json";
const { server, proxy } = useTestServers();

const everything = useEverythingServers();
// Registered after the servers' hook, so connections close first.
const { connect, connectError } = useConnections();

describe("headers", () => {
  it("that HTTP cannot carry are CONFIG_INVALID before anything is sent", async () => {
    const nobody = await server((_req, res) => {
      res.writeHead(500).end();
    });
    const url = `${nobody.origin}/mcp`;
    const badName = await connectError({
      name: "bad",
      config: { url, headers: { "bad name": "x" } },
      sourcePath: SOURCE,
    });
    expect(badName.code).toBe("CONFIG_INVALID");
    expect(badName.message).toBe(
      `MCP server "bad" has invalid "headers": headers.bad name: not a valid HTTP header name or value (fix it in ${SOURCE})`,
    );
    const notString = await connectError({
      name: "bad",
      config: {
        url,
        headers: { "X-Count": 3 } as unknown as Record<string, string>,
      },
    });
    expect(notString.message).toContain("headers.X-Count: expected a string, got number");
    expect(nobody.requests).toEqual([]);
  });

  it("go with every Streamable HTTP request (POST, GET, DELETE), without forging protocol headers", async () => {
    const front = await proxy(new URL(everything.http.url).origin);
    const connection = await connectToServer({
      name: "everything",
      config: {
        type: "http",
        url: `${front.origin}/mcp`,
        headers: { "X-Api-Key": "k-123", "X-Trace": "trace-1", "Mcp-Session-Id": "forged" },
      },
    });
    await listTools(connection);
    await callTool(connection, { name: "echo", args: { message: "x" } });
    await closeConnection(connection);

    const methods = new Set(front.requests.map((r) => r.method));
    expect(methods).toEqual(new Set(["POST", "GET", "DELETE"]));
    for (const request of front.requests) {
      expect(request.headers["x-api-key"]).toBe("k-123");
      expect(request.headers["x-trace"]).toBe("trace-1");
    }
    // The server/discover probe ("auto") and the initialize POST carry no session id; later ones
    // carry the server's, never the config's.
    expect(front.requests[0]?.headers["mcp-session-id"]).toBeUndefined();
    expect(front.requests[1]?.headers["mcp-session-id"]).toBeUndefined();
    const sessionIds = new Set(front.requests.slice(2).map((r) => r.headers["mcp-session-id"]));
    expect(sessionIds.size).toBe(1);
    expect(sessionIds.has("forged")).toBe(false);
  });

  it("go with the SSE stream and every message POST", async () => {
    const front = await proxy(new URL(everything.sse.url).origin);
    const connection = await connect({
      name: "everything",
      config: {
        type: "sse",
        url: `${front.origin}/sse`,
        headers: { "X-Api-Key": "k-sse" },
      },
    });
    await callTool(connection, { name: "echo", args: { message: "x" } });
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
      const error = await connectError({
        name: "moved",
        config: {
          type,
          url: `${redirecting.origin}/mcp`,
          headers: { Authorization: "Bearer secret", "X-Api-Key": "k" },
        },
        sourcePath: SOURCE,
      });
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
    const target = new URL(everything.http.url).origin;
    const front = await proxy(target, {
      intercept: (req, res) => {
        if (!req.url?.startsWith("/old")) return false;
        res.writeHead(308, { location: "/mcp" }).end();
        return true;
      },
    });
    const connection = await connect({
      name: "moved",
      config: {
        type: "http",
        url: `${front.origin}/old`,
        headers: { "X-Api-Key": "k-moved" },
      },
    });
    expect((await callTool(connection, { name: "echo", args: { message: "followed" } })).content).toEqual([
      { type: "text", text: "Echo: followed" },
    ]);
    const reached = front.requests.filter((r) => r.path === "/mcp");
    expect(reached.length).toBeGreaterThan(0);
    for (const request of reached) expect(request.headers["x-api-key"]).toBe("k-moved");
  });
});
