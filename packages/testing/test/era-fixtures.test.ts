import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dualEraServer, echoServer, legacyServer, modernServer, readPidFileEntries } from "../src/index.js";
import { closeSessionsAfterEach, type RawStdio, spawnRaw, useTempDir } from "./helpers.js";

closeSessionsAfterEach();
const dir = useTempDir("mcp-rt-era-");

const MODERN = "2026-07-28";

/** The `_meta` envelope every 2026-07-28 request carries. */
const envelope = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

const discover = { id: "probe-1", method: "server/discover", params: { _meta: envelope } };
const initialize = {
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const modernCall = (id: number, message: string) => ({
  id,
  method: "tools/call",
  params: { name: "echo", arguments: { message }, _meta: envelope },
});

const discoverResult = {
  jsonrpc: "2.0",
  id: "probe-1",
  result: expect.objectContaining({
    supportedVersions: [MODERN],
    capabilities: expect.objectContaining({ tools: { listChanged: true } }),
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-rt-fixture", version: "1.0.0" } },
  }),
};
const initializeResult = {
  jsonrpc: "2.0",
  id: 1,
  result: expect.objectContaining({
    protocolVersion: "2025-11-25",
    serverInfo: { name: "mcp-rt-fixture", version: "1.0.0" },
  }),
};
const initializeRejected = {
  jsonrpc: "2.0",
  id: 1,
  error: {
    code: -32022,
    message: "Unsupported protocol version: 2025-11-25",
    data: { supported: [MODERN], requested: "2025-11-25" },
  },
};

/** The roles written to `pidFile`, each checked to come from `server`'s pid. */
function rolesOf(pidFile: string, server: RawStdio): string[] {
  const entries = readPidFileEntries(pidFile);
  expect(entries.map((entry) => entry.pid)).toEqual(entries.map(() => server.child.pid));
  return entries.map((entry) => entry.role);
}

describe("legacy fixtures and a server/discover probe", () => {
  it("answers -32601 by default (as SDK servers do), then initializes on the same process", async () => {
    const pidFile = join(dir(), "pids");
    const server = spawnRaw(echoServer({ pidFile }));
    server.send(discover);
    expect(await server.next()).toEqual({
      jsonrpc: "2.0",
      id: "probe-1",
      error: { code: -32601, message: "Method not found" },
    });
    server.send(initialize);
    expect(await server.next()).toEqual(initializeResult);
    server.send({ method: "notifications/initialized" });
    server.send({ id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } });
    expect(await server.next()).toMatchObject({ id: 2, result: { content: [{ type: "text", text: "hi" }] } });
    // After initialize too, discover is an unknown method.
    server.send({ ...discover, id: "probe-2" });
    expect(await server.next()).toMatchObject({ id: "probe-2", error: { code: -32601 } });
    expect(rolesOf(pidFile, server)).toEqual(["server", "probe", "initialize", "probe"]);
  });

  it("answers -32602 with invalid-params (as Python servers do)", async () => {
    const server = spawnRaw(legacyServer("invalid-params"));
    server.send(discover);
    expect(await server.next()).toEqual({
      jsonrpc: "2.0",
      id: "probe-1",
      error: { code: -32602, message: "Invalid request parameters" },
    });
    server.send(initialize);
    expect(await server.next()).toEqual(initializeResult);
  });

  it("never answers with never, and keeps reading", async () => {
    const pidFile = join(dir(), "pids");
    const server = spawnRaw(legacyServer("never", { pidFile }));
    server.send(discover);
    expect(await server.next(1000)).toBeUndefined();
    server.send(initialize);
    expect(await server.next()).toEqual(initializeResult);
    expect(server.stderr()).toContain("never answering (--probe-answer=never)");
    expect(rolesOf(pidFile, server)).toEqual(["server", "probe", "initialize"]);
  });

  it("exits with code 1 and writes nothing to stdout with exit (as rmcp servers do)", async () => {
    const pidFile = join(dir(), "pids");
    const server = spawnRaw(legacyServer("exit", { pidFile }));
    server.send(discover);
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(await server.next(100)).toBeUndefined();
    expect(rolesOf(pidFile, server)).toEqual(["server", "probe"]);
  });
});

describe("modern fixture", () => {
  it("refuses initialize with -32022 and serves 2026-07-28 on the same process", async () => {
    const pidFile = join(dir(), "pids");
    const server = spawnRaw(modernServer({ pidFile, tools: 2, content: true }));
    server.send(initialize);
    expect(await server.next()).toEqual(initializeRejected);
    server.send(discover);
    expect(await server.next()).toEqual(discoverResult);
    server.send(modernCall(2, "héllo"));
    expect(await server.next()).toMatchObject({
      id: 2,
      result: { content: [{ type: "text", text: "héllo" }], resultType: "complete" },
    });
    server.send({ id: 3, method: "tools/list", params: { _meta: envelope } });
    const list = (await server.next()) as { result: { tools: Array<{ name: string }> } };
    expect(list.result.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["echo", "tool_0", "tool_1", "add_resource"]),
    );
    server.send({
      id: 4,
      method: "resources/read",
      params: { uri: "fixture://notes/first", _meta: envelope },
    });
    expect(await server.next()).toMatchObject({
      id: 4,
      result: { contents: [{ uri: "fixture://notes/first" }] },
    });
    expect(rolesOf(pidFile, server)).toEqual(["server", "initialize", "probe", "list"]);
  });

  it("answers a probe for an unknown version with -32022 naming 2026-07-28", async () => {
    const server = spawnRaw(modernServer());
    const future = { "io.modelcontextprotocol/protocolVersion": "2099-01-01" };
    server.send({ ...discover, params: { _meta: { ...envelope, ...future } } });
    expect(await server.next()).toEqual({
      jsonrpc: "2.0",
      id: "probe-1",
      error: {
        code: -32022,
        message: "Unsupported protocol version: 2099-01-01",
        data: { supported: [MODERN], requested: "2099-01-01" },
      },
    });
    server.send(discover);
    expect(await server.next()).toEqual(discoverResult);
  });
});

describe("dual-era fixture", () => {
  it("pins modern after a discover: a later initialize gets -32022", async () => {
    const pidFile = join(dir(), "pids");
    const server = spawnRaw(dualEraServer({ pidFile }));
    server.send(discover);
    expect(await server.next()).toEqual(discoverResult);
    server.send(initialize);
    expect(await server.next()).toEqual(initializeRejected);
    server.send(modernCall(2, "still modern"));
    expect(await server.next()).toMatchObject({ id: 2, result: { content: [{ text: "still modern" }] } });
    expect(rolesOf(pidFile, server)).toEqual(["server", "probe", "initialize"]);
  });

  it("pins legacy after an initialize: a later discover gets -32601", async () => {
    const pidFile = join(dir(), "pids");
    const server = spawnRaw(dualEraServer({ pidFile }));
    server.send(initialize);
    expect(await server.next()).toEqual(initializeResult);
    server.send({ method: "notifications/initialized" });
    server.send({ id: 2, method: "tools/list" });
    expect(await server.next()).toMatchObject({ id: 2, result: { tools: [{ name: "echo" }] } });
    server.send(discover);
    expect(await server.next()).toMatchObject({ id: "probe-1", error: { code: -32601 } });
    expect(rolesOf(pidFile, server)).toEqual(["server", "initialize", "list", "probe"]);
  });

  it("with stdinDelayMs, answers a discover sent at once only after the delay, as modern", async () => {
    const started = Date.now();
    const server = spawnRaw(dualEraServer({ stdinDelayMs: 1500 }));
    server.send(discover);
    expect(await server.next(1000)).toBeUndefined();
    expect(await server.next()).toEqual(discoverResult);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(server.stderr()).toContain("reading stdin in 1500 ms (--stdin-delay-ms)");
  });
});
