import { callTool, isFreshHint, listTools, type MCPServerConnection } from "@mcp-rt/client";
import { type HttpFixture, startHttpFixture } from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { useConnections } from "./helpers.js";
import { checkNoPortsLeftAfterFile, useTestServers } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const { connect } = useConnections();
const servers = useTestServers();
let fixture: HttpFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** A modern HTTP fixture behind a proxy that keeps each POST's body and `Mcp-Param-*` headers. */
async function routedServer(options: Parameters<typeof startHttpFixture>[0] = {}) {
  fixture = await startHttpFixture({ era: "modern", headerTools: true, ...options });
  const posts: { body: string; region: string | undefined }[] = [];
  const proxy = await servers.proxy(new URL(fixture.url).origin, {
    intercept: (req, _res, body) => {
      if (req.method === "POST") {
        const region = req.headers["mcp-param-region"];
        posts.push({ body, region: typeof region === "string" ? region : undefined });
      }
      return false;
    },
  });
  const connect_ = (): Promise<MCPServerConnection> =>
    connect({ name: "routed", config: { type: "http", url: `${proxy.origin}/mcp` } });
  return { posts, connect: connect_ };
}

const calls = <T extends { body: string }>(posts: T[], method: string): T[] =>
  posts.filter((post) => post.body.includes(`"method":"${method}"`));

describe("x-mcp-header on a 2026-07-28 HTTP connection", () => {
  it("leaves out a tool with an invalid mark, with a notice naming the server, the tool and why", async () => {
    const { connect } = await routedServer();
    const connection = await connect();
    const notices: string[] = [];
    const tools = await listTools(connection, { onToolDropped: (notice) => notices.push(notice.message) });
    expect(tools.map((tool) => tool.name)).toEqual(["echo", "routed"]);
    expect(notices).toEqual([
      expect.stringMatching(
        /^MCP server "routed" lists tool "bad_header" with an invalid x-mcp-header \(count: x-mcp-header is only allowed on string, integer or boolean properties\); it is left out/,
      ),
    ]);
  });

  it("sends Mcp-Param-* from a definition listed earlier, on a connection that has not listed", async () => {
    const { connect, posts } = await routedServer();
    const listed = await listTools(await connect());
    const routed = listed.find((tool) => tool.name === "routed");
    const warm = await connect();
    const result = await callTool(warm, { name: "routed", args: { region: "eu-west" }, tool: routed });
    expect(result.content).toEqual([{ type: "text", text: "routed to eu-west" }]);
    expect(calls(posts, "tools/call").map((post) => post.region)).toEqual(["eu-west"]);
    // One list only: the first connection's.
    expect(calls(posts, "tools/list")).toHaveLength(1);
  });

  it("lists again and retries once when the server answers HeaderMismatch (-32020)", async () => {
    const { connect, posts } = await routedServer();
    const connection = await connect();
    // No list and no definition: the call goes out without the header, and the server refuses it.
    const result = await callTool(connection, { name: "routed", args: { region: "us-east" } });
    expect(result.content).toEqual([{ type: "text", text: "routed to us-east" }]);
    expect(calls(posts, "tools/call").map((post) => post.region)).toEqual([undefined, "us-east"]);
    expect(calls(posts, "tools/list")).toHaveLength(1);
  });

  it("refuses to call a tool whose earlier definition has an invalid mark", async () => {
    const { connect, posts } = await routedServer();
    const connection = await connect();
    const bad = {
      name: "bad_header",
      inputSchema: { type: "object", properties: { count: { type: "number", "x-mcp-header": "Count" } } },
    };
    await expect(
      callTool(connection, { name: "bad_header", args: { count: 1 }, tool: bad }),
    ).rejects.toMatchObject({
      code: "PROTOCOL_ERROR",
      message: expect.stringContaining('tool "bad_header" with an invalid x-mcp-header'),
    });
    expect(calls(posts, "tools/call")).toEqual([]);
  });
});

describe("caching hints of tools/list (SEP-2549)", () => {
  it("are kept from the last list: ttlMs and cacheScope as sent", async () => {
    const { connect } = await routedServer({ listTtlMs: 60_000, listScope: "public" });
    const connection = await connect();
    expect(connection.toolsCacheHint).toBeUndefined();
    const before = Date.now();
    await listTools(connection);
    const hint = connection.toolsCacheHint;
    expect(hint).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
    expect(hint?.receivedAt).toBeGreaterThanOrEqual(before);
    expect(isFreshHint(hint)).toBe(true);
    expect(isFreshHint(hint, (hint?.receivedAt ?? 0) + 60_000)).toBe(false);
  });

  it("default to ttlMs 0 and private, what an SDK server sends without hints", async () => {
    const { connect } = await routedServer();
    const connection = await connect();
    await listTools(connection);
    expect(connection.toolsCacheHint).toMatchObject({ ttlMs: 0, cacheScope: "private" });
    expect(isFreshHint(connection.toolsCacheHint)).toBe(false);
  });

  it("are not read on a legacy connection, whatever its result holds", async () => {
    fixture = await startHttpFixture({ era: "legacy", listTtlMs: 60_000, listScope: "private" });
    const connection = await connect({ name: "legacy", config: { type: "http", url: fixture.url } });
    await listTools(connection);
    expect(connection.era).toBe("legacy");
    expect(connection.toolsCacheHint).toBeUndefined();
  });

  it("of a paged list: as fresh as its shortest-lived page, private if any page is", async () => {
    const { connect } = await routedServer({ tools: 5, pageSize: 2, listTtlMs: 30_000, listScope: "public" });
    const connection = await connect();
    const tools = await listTools(connection);
    expect(tools).toHaveLength(7);
    expect(connection.toolsCacheHint).toMatchObject({ cacheScope: "public" });
    expect(connection.toolsCacheHint?.ttlMs).toBeLessThanOrEqual(30_000);
    expect(connection.toolsCacheHint?.ttlMs).toBeGreaterThan(25_000);
  });
});

describe("the auth context of a connection", () => {
  it("digests who asks and the values resolving filled in, never the literal ones the config fixes", async () => {
    fixture = await startHttpFixture({ era: "modern" });
    const url = fixture.url;
    const written = { type: "http" as const, url, headers: { "X-Api-Key": "!print-key" } };
    const as = (name: string, key: string, user?: string) =>
      connect({
        name,
        config: { ...written, headers: { "X-Api-Key": key } },
        unresolvedConfig: written,
        ...(user ? { user } : {}),
      });
    const a = await as("a", "key-of-ann");
    const b = await as("b", "key-of-ann");
    const c = await as("c", "key-of-bob");
    expect(a.authContext).toMatch(/^[0-9a-f]{64}$/);
    expect(b.authContext).toBe(a.authContext);
    expect(c.authContext).not.toBe(a.authContext);
    expect(a.authContext).not.toContain("key-of-ann");
    expect((await as("d", "key-of-ann", "another-user@host")).authContext).not.toBe(a.authContext);
    // Literal headers are the config's own (its cache entry's id covers them): the user alone is the context.
    const plain = await connect({ name: "e", config: { type: "http", url } });
    const literal = await connect({
      name: "f",
      config: { type: "http", url, headers: { "X-Team": "core" } },
    });
    expect(literal.authContext).toBe(plain.authContext);
  });

  it("carries the strictest cache scope of the lists made on it", async () => {
    fixture = await startHttpFixture({ era: "modern", listTtlMs: 30_000, listScope: "public" });
    const connection = await connect({ name: "s", config: { type: "http", url: fixture.url } });
    expect(connection.cacheScope).toBeUndefined();
    await listTools(connection);
    expect(connection.cacheScope).toBe("public");
  });
});

describe("a cursor the server no longer takes", () => {
  it("drops the pages listed so far and lists once more from the first page", async () => {
    fixture = await startHttpFixture({ era: "modern", tools: 5, pageSize: 2 });
    const lists: string[] = [];
    let refused = false;
    const proxy = await servers.proxy(new URL(fixture.url).origin, {
      intercept: (req, res, body) => {
        if (req.method !== "POST" || !body.includes('"tools/list"')) return false;
        lists.push(body.includes('"cursor"') ? "page" : "first");
        if (refused || !body.includes('"offset:4"')) return false;
        refused = true;
        const { id } = JSON.parse(body) as { id: number };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32602, message: "Invalid cursor" } }));
        return true;
      },
    });
    const connection = await connect({ name: "paged", config: { type: "http", url: `${proxy.origin}/mcp` } });
    const tools = await listTools(connection);
    expect(tools.map((tool) => tool.name)).toEqual([
      "echo",
      "tool_0",
      "tool_1",
      "tool_2",
      "tool_3",
      "tool_4",
    ]);
    expect(lists).toEqual(["first", "page", "page", "first", "page", "page"]);
  });
});
