import type { IncomingMessage, ServerResponse } from "node:http";
import { callTool, type MCPConnectionCloseEvent } from "@mcp-rt/client";
import { McpRtError } from "@mcp-rt/config";
import { startHttpFixture } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { inlineServer, useConnections } from "./helpers.js";
import { checkNoPortsLeftAfterFile, freePort, useTestServers } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const SOURCE = "/home/me/project/.mcp.json";
// A Zapier-style URL: the path segment is the credential.
const PATH_TOKEN = "ZjNmYTk0ZDItM2Q1Ny00YjQ2LWE2NjAtOTBkMmQ5NzFmYzQ3OjE4ZGJkY2Vk";
const { server, proxy } = useTestServers();
const { connect, connectError } = useConnections();

describe("connect errors never print a URL's or a header's secrets", () => {
  it("quotes an invalid url redacted", async () => {
    const bad = `mcp.zapier.com/api/mcp/s/${PATH_TOKEN}/mcp?api_key=key-123456`;
    const error = await connectError({ name: "zapier", config: { url: bad }, sourcePath: SOURCE });
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      `MCP server "zapier" has an invalid "url": "mcp.zapier.com/api/mcp/s/***/mcp?api_key=***" is not an http:// or https:// URL (fix "url" in ${SOURCE})`,
    );
    const ftp = await connectError({ name: "ftp", config: { url: "ftp://me:hunter22@example.com/mcp" } });
    expect(ftp.message).not.toContain("hunter22");
  });

  it("names an unreachable server without its path token", async () => {
    const url = `http://127.0.0.1:${await freePort()}/api/mcp/s/${PATH_TOKEN}/mcp`;
    const error = await connectError({ name: "down", config: { url }, sourcePath: SOURCE });
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.message).toContain("cannot reach http://127.0.0.1:");
    expect(error.message).toContain("/api/mcp/s/***/mcp");
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain(PATH_TOKEN);
  });

  it("hides the config's secrets when an error page quotes them", async () => {
    const header = "Bearer tok-abc-123456";
    const echo = await server((req, res) => {
      res
        .writeHead(500, { "content-type": "text/plain" })
        .end(`no route for ${req.url} with ${req.headers.authorization}`);
    });
    const url = `${echo.origin}/api/mcp/s/${PATH_TOKEN}/mcp`;
    const error = await connectError({
      name: "echo",
      config: { type: "http", url, headers: { Authorization: header } },
    });
    expect(error.code).toBe("HTTP_ERROR");
    expect(error.message).toContain("no route for");
    expect(error.message).not.toContain(PATH_TOKEN);
    expect(error.message).not.toContain("tok-abc-123456");
  });
});

describe("request errors never print the config's secrets", () => {
  it("hides a header value that an error page of tools/call quotes", async () => {
    const fixture = await startHttpFixture();
    try {
      const front = await proxy(new URL(fixture.config.url).origin, {
        intercept: (req: IncomingMessage, res: ServerResponse, body: string) => {
          if (req.method !== "POST" || !body.includes('"tools/call"')) return false;
          res.writeHead(500, { "content-type": "text/plain" }).end(`bad key ${req.headers["x-api-key"]}`);
          return true;
        },
      });
      const url = `${front.origin}${new URL(fixture.config.url).pathname}`;
      // As the manager connects: the key came from a `!command`, the connection reports the config unresolved.
      const connection = await connect({
        name: "keyed",
        config: { type: "http", url, headers: { "X-Api-Key": "key-abc-123456" } },
        unresolvedConfig: { type: "http", url, headers: { "X-Api-Key": "!op read op://k" } },
      });
      const error = (await callTool(connection, { name: "echo", args: { message: "x" } }).catch(
        (e: unknown) => e,
      )) as Error;
      expect(error).toMatchObject({ name: "McpRtError", code: "HTTP_ERROR" });
      expect(error.message).toContain("bad key ***");
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain("key-abc-123456");
    } finally {
      await fixture.close();
    }
  });
});

describe("a server's stderr never shows its config's secrets", () => {
  const KEY = "sk-live-7f3a9c2e51";
  // A bare stdio MCP server that says its key on stderr: at once (`early`), or on a call, then exits.
  const leaky = (early: boolean) => ({
    command: process.execPath,
    args: [
      "-e",
      `(() => {
      const say = () => process.stderr.write("starting with key " + process.env.LEAKY_KEY + "\\n");
      if (${early}) { say(); setTimeout(() => process.exit(3), 50); return; }
      const rl = require("node:readline").createInterface({ input: process.stdin });
      const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
      rl.on("line", (line) => {
        const m = JSON.parse(line);
        if (m.method === "initialize") send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "leaky", version: "1" } } });
        else if (m.method === "tools/call") { say(); setTimeout(() => process.exit(3), 50); }
      });
      })();`,
    ],
    env: { LEAKY_KEY: KEY },
  });
  const shown = (error: McpRtError): string =>
    JSON.stringify({ message: error.message, stderrTail: error.stderrTail, details: error.details });

  // A bare stdio server that logs its settings on stderr, then refuses `initialize`.
  const refusing = (env: Record<string, string>) => ({
    command: process.execPath,
    args: [
      "-e",
      `const names = ${JSON.stringify(Object.keys(env))};
      process.stderr.write("settings: " + names.map((n) => process.env[n]).join(" ") + "\\n");
      require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
        const m = JSON.parse(line);
        if (m.method === "initialize") process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, error: { code: -32600, message: "modern server: reject legacy clients" } }) + "\\n");
      });`,
    ],
    env,
  });

  it("keeps plain values and the server's name readable", async () => {
    const error = await connectError({
      name: "modern",
      config: refusing({ FIX_NAME: "modern", FIX_LEGACY: "reject", MODE: "server" }),
    });
    expect(error.message).toContain('MCP server "modern"');
    expect(error.message).toContain("modern server: reject legacy clients");
    expect(error.stderrTail).toContain("settings: modern reject server");
    expect(shown(error)).not.toContain("***");
  });

  it("hides secrets by name, by shape and by randomness in the same messages", async () => {
    const secrets = {
      SERVICE_TOKEN: "hunter2hunter2",
      GH: "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
      SEED: "7x2yAXs3UzfRrVvG1ZW-",
    };
    const error = await connectError({ name: "modern", config: refusing({ ...secrets, MODE: "server" }) });
    expect(error.stderrTail).toContain("settings: *** *** *** server");
    for (const secret of Object.values(secrets)) expect(shown(error)).not.toContain(secret);
    expect(error.message).toContain('MCP server "modern"');
  });

  it("hides it in a failed start's message and stderr tail", async () => {
    const error = await connectError({ name: "leaky", config: leaky(true) });
    expect(error.stderrTail).toContain("starting with key ***");
    expect(shown(error)).not.toContain(KEY);
  });

  it("hides it when the server dies on a call: the call's error, the close event and stderrTail()", async () => {
    const connection = await connect({ name: "leaky", config: leaky(false) });
    const closed = new Promise<MCPConnectionCloseEvent>((resolve) => connection.onClose(resolve));
    const error = (await callTool(connection, { name: "any", args: {} }).catch(
      (e: unknown) => e,
    )) as McpRtError;
    expect(McpRtError.isInstance(error)).toBe(true);
    const event = await closed;
    expect(event.error?.stderrTail).toContain("starting with key ***");
    for (const failure of [error, event.error as McpRtError]) expect(shown(failure)).not.toContain(KEY);
    expect(connection.stderrTail()).toContain("starting with key ***");
    expect(connection.stderrTail()).not.toContain(KEY);
  });
});

describe("secrets passed through from the environment", () => {
  const token = "passed-through-token-0123456789";
  const env = { ...process.env, API_TOKEN: token, PLAIN_SETTING: "visible-value" };
  const printsAndExits = {
    command: process.execPath,
    args: [
      "-e",
      'console.error("token " + process.env.API_TOKEN + " setting " + process.env.PLAIN_SETTING); process.exit(2)',
    ],
    envPassthrough: ["API_TOKEN", "PLAIN_SETTING"],
  };

  it("are hidden as env values are, in the connect error and its stderr tail", async () => {
    const error = await connectError({ name: "leaky", config: printsAndExits, env });
    expect(error.code).toBe("INIT_FAILED");
    const shown = JSON.stringify({ message: error.message, tail: error.stderrTail });
    expect(shown).toContain("token ***");
    expect(shown).not.toContain(token);
    // Not every passed-through value is a secret: the same whole-token rule as env values.
    expect(shown).toContain("visible-value");
  });

  it("are hidden in the close event of a server that prints one and dies", async () => {
    const connection = await connect({
      name: "leaky",
      config: {
        ...inlineServer([
          'import { McpServer } from "@modelcontextprotocol/server";',
          'import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";',
          'const server = new McpServer({ name: "leaky", version: "1.0.0" });',
          "await server.connect(new StdioServerTransport());",
          'setTimeout(() => { console.error("token " + process.env.API_TOKEN); process.exit(3); }, 200);',
        ]),
        envPassthrough: ["API_TOKEN"],
      },
      env,
    });
    const closed = await new Promise<MCPConnectionCloseEvent>((resolve) => connection.onClose(resolve));
    const shown = JSON.stringify({
      reason: closed.reason,
      message: closed.error?.message,
      tail: connection.stderrTail(),
    });
    expect(shown).toContain("token ***");
    expect(shown).not.toContain(token);
  });
});
