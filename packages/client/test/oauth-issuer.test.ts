import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isSignInRequired } from "@mcp-rt/client";
import { createMemoryAuthStorage } from "@mcp-rt/config";
import { createBrowserStandIn } from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { useConnections } from "./helpers.js";
import { rejection, useOAuthKit, whoami } from "./oauth-helpers.js";

const kit = useOAuthKit();
const { connect } = useConnections();

/** A browser that changes the `iss` of the redirect back to the client's loopback callback. */
function browserSetting(iss: string | undefined) {
  const seen: Array<string | null> = [];
  const browser = createBrowserStandIn({
    rewriteRedirect: (url) => {
      if (url.hostname !== "127.0.0.1" || url.pathname !== "/callback") return url;
      seen.push(url.searchParams.get("iss"));
      if (iss === undefined) url.searchParams.delete("iss");
      else url.searchParams.set("iss", iss);
      return url;
    },
  });
  return { browser, seen };
}

describe("the issuer of an authorization response (RFC 9207) and of the metadata (RFC 8414 §3.3)", () => {
  it("signs in when the callback's iss names the authorization server the metadata promised it", async () => {
    const fixture = await kit.fixture();
    const metadata = (await (
      await fetch(`${fixture.issuer}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    const seen: Array<string | null> = [];
    const browser = createBrowserStandIn({
      rewriteRedirect: (url) => {
        if (url.pathname === "/callback") seen.push(url.searchParams.get("iss"));
        return url;
      },
    });
    const connection = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: { storage: createMemoryAuthStorage(), openUrl: browser.openUrl, interactive: true },
    });
    expect(await whoami(connection)).toContain("alice");
    expect(seen).toEqual([fixture.issuer]);
  });

  it.each([
    ["names another issuer", "https://attacker.example"],
    ["names the issuer with a trailing slash (compared as a plain string)", "ISSUER/"],
    ["lacks iss although the metadata says it is sent", undefined],
  ])("refuses a callback that %s, before the code is exchanged", async (_what, iss) => {
    const fixture = await kit.fixture();
    const forged = iss?.replace("ISSUER", fixture.issuer);
    const { browser, seen } = browserSetting(forged);
    const error = await rejection(
      connect({
        name: "linear",
        config: fixture.config(),
        oauth: { storage: createMemoryAuthStorage(), openUrl: browser.openUrl, interactive: true },
      }),
    );
    expect(seen).toEqual([fixture.issuer]);
    expect(error.code).toBe("SIGN_IN_REQUIRED");
    expect(isSignInRequired(error)).toBe(true);
    expect(error.details).toMatchObject({ failure: "issuer-mismatch" });
    expect(error.message).toMatch(/^Cannot sign in to MCP server "linear": the sign-in response came back/);
    expect(error.message).toContain(`expected "${fixture.issuer}"`);
    expect(error.message).toContain("RFC 9207");
    // What the browser brought back is an attacker's to choose: it is not echoed.
    if (forged) expect(error.message).not.toContain(forged);
    expect(fixture.counts.codeExchanges).toBe(0);
  });
});

describe("authorization server metadata whose issuer is not the one its URL was built from", () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (!server) return;
    server.closeAllConnections();
    server.close();
    await once(server, "close");
    server = undefined;
  });

  it("is refused with a clear SIGN_IN_REQUIRED naming both, and no browser opens", async () => {
    const requests: string[] = [];
    server = createServer((req, res) => {
      const origin = `http://${req.headers.host}`;
      requests.push(req.url ?? "");
      const json = (body: unknown) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.url === "/.well-known/oauth-protected-resource/mcp")
        return json({ resource: `${origin}/mcp`, authorization_servers: [origin] });
      if (req.url === "/.well-known/oauth-authorization-server")
        return json({
          issuer: "https://other-issuer.example",
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
        });
      if (req.url === "/mcp") {
        res.writeHead(401, {
          "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        });
        return res.end();
      }
      res.writeHead(404).end();
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const error = await rejection(
      connect({
        name: "linear",
        config: { type: "http", url: `${origin}/mcp` },
        oauth: kit.oauth(createMemoryAuthStorage(), { interactive: true }),
      }),
    );
    expect(error.code).toBe("SIGN_IN_REQUIRED");
    expect(error.details).toMatchObject({ failure: "issuer-mismatch" });
    expect(error.message).toContain(`the authorization server metadata fetched for "${origin}"`);
    expect(error.message).toContain('names another issuer ("https://other-issuer.example")');
    expect(kit.browser.visits).toEqual([]);
    expect(requests).not.toContain("/register");
  });
});
