import type { MCPServerConfig } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { authContextOf, localUser } from "../src/auth-context.js";

const url = "https://mcp.example.com/mcp";
const user = "1000:ann@box:/home/ann";
const stdio = { command: "node", args: ["server.js"] };
/** A terminal's environment: nothing in it carries a credential the server would get. */
const shell = {
  PATH: "/usr/bin",
  HOME: "/home/ann",
  TERM_SESSION_ID: "w0t0p0:8F3C1A2B-1234-4ABC-9DEF-0123456789AB",
};

const context = (written: MCPServerConfig, resolved = written, more: object = {}) =>
  authContextOf({ user, written, resolved, parentEnv: shell, ...more });

describe("authContextOf", () => {
  it("is always a digest, never the values: a config of literals has the user's context alone", () => {
    const literal = context({ ...stdio, env: { LOG_LEVEL: "debug", GITHUB_TOKEN: "ghp_literal" } });
    expect(literal).toMatch(/^[0-9a-f]{64}$/);
    expect(literal).toBe(context(stdio));
    expect(context({ url })).toBe(context({ url, headers: { "X-Team": "core" } }));
    expect(literal).not.toContain("ghp_literal");
  });

  it("tells users apart: one store shared by two users or hosts never crosses them", () => {
    expect(authContextOf({ user: "1001:bob@box:/home/bob", written: stdio, resolved: stdio })).not.toBe(
      authContextOf({ user, written: stdio, resolved: stdio }),
    );
    expect(localUser()).toContain("@");
  });

  it("digests what resolving filled in: `!command` outputs and API keys, wherever they land", () => {
    const written = { ...stdio, env: { API_KEY: "!op read op://vault/key", LOG_LEVEL: "debug" } };
    const ann = context(written, { ...written, env: { API_KEY: "key-of-ann", LOG_LEVEL: "debug" } });
    const bob = context(written, { ...written, env: { API_KEY: "key-of-bob", LOG_LEVEL: "debug" } });
    expect(ann).not.toBe(bob);
    expect(ann).toBe(context(written, { ...written, env: { LOG_LEVEL: "debug", API_KEY: "key-of-ann" } }));
    const apikey = { url, auth: { type: "apikey" as const, credentialId: "k" } };
    expect(context(apikey, { ...apikey, headers: { Authorization: "Bearer one" } })).not.toBe(
      context(apikey, { ...apikey, headers: { authorization: "Bearer two" } }),
    );
  });

  it("digests what a stdio server inherits that carries a credential, and nothing else of the shell", () => {
    const passthrough = { ...stdio, envPassthrough: ["GITHUB_TOKEN"] };
    const withToken = (token: string) =>
      authContextOf({
        user,
        written: passthrough,
        resolved: passthrough,
        parentEnv: { ...shell, GITHUB_TOKEN: token },
      });
    expect(withToken("ghp_one")).not.toBe(withToken("ghp_two"));
    // Not passed through, the token never reaches the server: it changes nothing.
    expect(
      authContextOf({ user, written: stdio, resolved: stdio, parentEnv: { ...shell, GITHUB_TOKEN: "x" } }),
    ).toBe(context(stdio));
    const headers = (value: string) =>
      authContextOf({
        user,
        written: stdio,
        resolved: stdio,
        parentEnv: { ...shell, OPENAPI_MCP_HEADERS: value },
      });
    expect(headers('{"X-API-Key":"one"}')).not.toBe(headers('{"X-API-Key":"two"}'));
    const url = (value: string) =>
      authContextOf({ user, written: stdio, resolved: stdio, parentEnv: { ...shell, MONGO_URI: value } });
    expect(url("mongodb://ann:pw1@db/x")).not.toBe(url("mongodb://ann:pw2@db/x"));
    // A new terminal (another session id, another working folder) is the same caller.
    expect(
      authContextOf({
        user,
        written: stdio,
        resolved: stdio,
        parentEnv: { ...shell, TERM_SESSION_ID: "w1t0p0:0000", PWD: "/tmp", SHLVL: "3" },
      }),
    ).toBe(context(stdio));
  });

  it("follows the OAuth principal: the same one is the same context, another is another", () => {
    const alice = context(
      { url },
      { url },
      { principal: '["https://as.example","https://mcp.example.com","sub:alice"]' },
    );
    expect(alice).not.toBe(context({ url }));
    expect(
      context(
        { url },
        { url },
        { principal: '["https://as.example","https://mcp.example.com","sub:alice"]' },
      ),
    ).toBe(alice);
    expect(
      context({ url }, { url }, { principal: '["https://as.example","https://mcp.example.com","sub:bob"]' }),
    ).not.toBe(alice);
  });
});
