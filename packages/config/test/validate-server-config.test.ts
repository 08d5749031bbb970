import { MCPServerConfigSchema, validateServerConfig } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";

describe("validateServerConfig", () => {
  it.each([
    [
      "a local server",
      { command: "npx", args: ["-y", "x"], env: { A: "1" }, cwd: "sub", timeout: 1, toolTimeout: 2 },
    ],
    ["a typed local server", { type: "stdio", command: "node" }],
    [
      "a remote server without type",
      { url: "https://example.com/mcp", headers: { Authorization: "Bearer t" } },
    ],
    ["an SSE server", { type: "sse", url: "http://localhost:8080/sse" }],
    [
      "an HTTP server with OAuth",
      { type: "http", url: "https://x.dev/mcp", auth: { type: "oauth", callbackPort: 0 } },
    ],
    ["an API-key server", { command: "x", auth: { type: "apikey", credentialId: "k" }, enabled: false }],
    ["tool lists", { command: "x", includeTools: ["a"], excludeTools: [] }],
    [
      "variables passed through on purpose",
      { command: "x", envPassthrough: ["GITHUB_TOKEN", "AWS_PROFILE"] },
    ],
    ["each protocol setting", { command: "x", protocol: "auto" }],
    ["a legacy server", { url: "https://example.com/mcp", protocol: "legacy" }],
    ["a 2026-07-28 server", { command: "x", protocol: "2026-07-28" }],
    ["fields of the other transport, which are ignored", { command: "x", headers: 5, url: undefined }],
  ])("accepts %s", (_label, config) => {
    expect(validateServerConfig("ok", config)).toEqual([]);
    expect(MCPServerConfigSchema.safeParse(config).success).toBe(true);
  });

  it.each([
    [
      "a non-object",
      "npx server",
      'servers.foo: must be an object with "command" (a local server) or "url" (a remote server), got "npx server"',
    ],
    [
      "an array",
      ["npx"],
      'servers.foo: must be an object with "command" (a local server) or "url" (a remote server), got ["npx"]',
    ],
    [
      "null",
      null,
      'servers.foo: must be an object with "command" (a local server) or "url" (a remote server), got null',
    ],
    [
      "an envPassthrough entry that is not a variable name",
      { command: "x", envPassthrough: ["GITHUB TOKEN"] },
      'servers.foo.envPassthrough[0]: must be an environment variable name (letters, digits, _), got "GITHUB TOKEN"',
    ],
    [
      "both command and url",
      { command: "npx", url: "https://x.dev" },
      'servers.foo: has both "command" and "url"; keep "command" to start a local server, or "url" to reach a remote one',
    ],
    [
      "neither command nor url",
      { args: ["x"] },
      'servers.foo: needs "command" (to start a local server) or "url" (to reach a remote one)',
    ],
    [
      "stdio without command",
      { type: "stdio" },
      'servers.foo.command: is required for a stdio server; add the program to run, e.g. "npx"',
    ],
    [
      "stdio with only a url",
      { type: "stdio", url: "https://x.dev/mcp" },
      'servers.foo.command: is required when type is "stdio"; add the program to run, or set type to "http" or "sse"',
    ],
    [
      "http without url",
      { type: "http" },
      "servers.foo.url: is required for an http server; add the server's URL",
    ],
    [
      "sse with only a command",
      { type: "sse", command: "npx" },
      'servers.foo.url: is required when type is "sse"; add the server\'s URL, or set type to "stdio"',
    ],
    [
      "an unknown type",
      { type: "websocket", url: "https://x.dev" },
      'servers.foo.type: unknown type "websocket"; use "stdio" (a local command), "http" (Streamable HTTP) or "sse"',
    ],
    [
      "an empty command",
      { command: "  " },
      'servers.foo.command: must be the program to run as a non-empty string, e.g. "npx", got "  "',
    ],
    [
      "a command that is not a string",
      { command: ["npx", "-y"] },
      'servers.foo.command: must be the program to run as a non-empty string, e.g. "npx", got ["npx","-y"]',
    ],
    [
      "args as one string",
      { command: "npx", args: "-y pkg" },
      'servers.foo.args: must be an array of strings, e.g. ["-y", "some-mcp-server"], got a string',
    ],
    [
      "an arg that is not a string",
      { command: "npx", args: ["--port", 3000] },
      "servers.foo.args[1]: must be a string, got a number; quote it",
    ],
    [
      "env that is not an object",
      { command: "x", env: ["A=1"] },
      'servers.foo.env: must be an object of string values, e.g. { "NAME": "value" }, got an array',
    ],
    [
      "an env value that is a number",
      { command: "x", env: { PORT: 8080 } },
      "servers.foo.env.PORT: must be a string, got a number; put the value in double quotes",
    ],
    [
      "an env value that is null",
      { command: "x", env: { "MY VAR": null } },
      'servers.foo.env["MY VAR"]: must be a string, got null; write it as one string',
    ],
    ["a cwd that is not a path", { command: "x", cwd: 7 }, "servers.foo.cwd: must be a folder path, got 7"],
    [
      "a url that is not http(s)",
      { url: "ws://x.dev/mcp" },
      'servers.foo.url: must be an http:// or https:// URL, e.g. "https://example.com/mcp", got "ws://x.dev/mcp"',
    ],
    [
      "a url that is not a URL",
      { url: "example.com/mcp" },
      'servers.foo.url: must be an http:// or https:// URL, e.g. "https://example.com/mcp", got "example.com/mcp"',
    ],
    [
      "a url that is not a string",
      { url: 42 },
      'servers.foo.url: must be an http:// or https:// URL, e.g. "https://example.com/mcp", got 42',
    ],
    [
      "headers that are not an object",
      { url: "https://x.dev", headers: "Authorization: x" },
      'servers.foo.headers: must be an object of string values, e.g. { "NAME": "value" }, got a string',
    ],
    [
      "a header value that is not a string",
      { url: "https://x.dev", headers: { "X-Retry": true } },
      "servers.foo.headers.X-Retry: must be a string, got a boolean; put the value in double quotes",
    ],
    [
      "a header name with a space",
      { url: "https://x.dev", headers: { "X Key": "v" } },
      'servers.foo.headers["X Key"]: is not a valid HTTP header name; use letters, digits and dashes',
    ],
    [
      "a header value with a line break",
      { url: "https://x.dev", headers: { "X-Key": "a\r\nInjected: 1" } },
      "servers.foo.headers.X-Key: must not contain line breaks",
    ],
    [
      "a negative timeout",
      { command: "x", timeout: -5 },
      "servers.foo.timeout: must be a positive whole number of milliseconds, got -5",
    ],
    [
      "a zero timeout",
      { command: "x", timeout: 0 },
      "servers.foo.timeout: must be a positive whole number of milliseconds, got 0",
    ],
    [
      "a fractional toolTimeout",
      { command: "x", toolTimeout: 1.5 },
      "servers.foo.toolTimeout: must be a positive whole number of milliseconds, got 1.5",
    ],
    [
      "a timeout as a string",
      { command: "x", timeout: "30s" },
      'servers.foo.timeout: must be a positive whole number of milliseconds, got "30s"',
    ],
    [
      "a timeout no timer can hold",
      { command: "x", timeout: 3_000_000_000 },
      "servers.foo.timeout: must be at most 2147483647 milliseconds (about 24 days), got 3000000000",
    ],
    [
      "enabled as a string",
      { command: "x", enabled: "no" },
      'servers.foo.enabled: must be true or false, got "no"',
    ],
    [
      "alwaysLoad as a string",
      { command: "x", alwaysLoad: "yes" },
      'servers.foo.alwaysLoad: must be true or false, got "yes"',
    ],
    [
      "an unknown protocol",
      { url: "https://example.com/mcp", protocol: "2025-11-25" },
      'servers.foo.protocol: must be "auto" (ask the server), "legacy" (2025-11-25 and before) or "2026-07-28", got "2025-11-25"',
    ],
    [
      "includeTools as a string",
      { command: "x", includeTools: "read" },
      'servers.foo.includeTools: must be an array of strings, e.g. ["read_file"], got "read"',
    ],
    [
      "an excludeTools item that is not a string",
      { command: "x", excludeTools: [{ name: "rm" }] },
      'servers.foo.excludeTools[0]: must be a string, got {"name":"rm"}; quote it',
    ],
    [
      "auth that is not an object",
      { command: "x", auth: "oauth" },
      'servers.foo.auth: must be an object such as { "type": "oauth" }, got "oauth"',
    ],
    [
      "an unknown auth type",
      { command: "x", auth: { type: "basic" } },
      'servers.foo.auth.type: must be "oauth" or "apikey", got "basic"',
    ],
    [
      "an apikey without credentialId",
      { command: "x", auth: { type: "apikey" } },
      "servers.foo.auth.credentialId: must name the stored API key as a non-empty string, got nothing",
    ],
    [
      "an OAuth scope list",
      { url: "https://x.dev", auth: { type: "oauth", scope: ["a"] } },
      'servers.foo.auth.scope: must be a string, got ["a"]',
    ],
    [
      "an OAuth callback port out of range",
      { url: "https://x.dev", auth: { type: "oauth", callbackPort: 70000 } },
      "servers.foo.auth.callbackPort: must be a port number from 0 to 65535, got 70000",
    ],
  ])("rejects %s", (_label, config, message) => {
    expect(validateServerConfig("foo", config)).toEqual([message]);
  });

  it("reports every problem of an entry, each naming its field", () => {
    expect(validateServerConfig("db", { command: "pg", args: "x", env: { N: 1 }, timeout: -1 })).toEqual([
      'servers.db.args: must be an array of strings, e.g. ["-y", "some-mcp-server"], got a string',
      "servers.db.env.N: must be a string, got a number; put the value in double quotes",
      "servers.db.timeout: must be a positive whole number of milliseconds, got -1",
    ]);
  });

  it("quotes server names that are not plain identifiers, and rejects an empty name", () => {
    expect(validateServerConfig("my server", { command: "" })).toEqual([
      'servers["my server"].command: must be the program to run as a non-empty string, e.g. "npx", got ""',
    ]);
    expect(validateServerConfig("", { command: "x" })).toEqual([
      'servers[""]: a server needs a non-empty name; rename the entry',
    ]);
  });

  it("never quotes the values of env, headers or args, which may be secrets", () => {
    const messages = validateServerConfig("foo", {
      url: "https://user:pw-s3cret@x.dev/mcp?token=tok-s3cret",
      command: "x",
      type: "http",
    }).concat(
      validateServerConfig("foo", {
        command: "x",
        args: ["--key", { token: "arg-s3cret" }],
        env: { A: { v: "env-s3cret" }, PIN: 4321 },
      }),
      validateServerConfig("foo", { url: "https://x.dev", headers: ["Authorization: hdr-s3cret"] }),
      validateServerConfig("foo", { url: "ftp://user:url-s3cret@x.dev/?api_key=key-s3cret" }),
    );
    expect(messages.length).toBeGreaterThan(4);
    expect(messages.join("\n")).not.toMatch(/s3cret|4321/);
  });

  it("shortens long values in messages", () => {
    const [message] = validateServerConfig("foo", { command: "x", type: "a".repeat(500) });
    expect(message?.length).toBeLessThan(200);
    expect(message).toContain("…");
  });
});
