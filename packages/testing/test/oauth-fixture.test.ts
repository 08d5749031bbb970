import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  auth,
  Client,
  type OAuthClientInformationMixed,
  type OAuthClientProvider,
  type OAuthTokens,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { createBrowserStandIn, type OAuthFixture, startOAuthFixture } from "../src/index.js";

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function fixture(options?: Parameters<typeof startOAuthFixture>[0]): Promise<OAuthFixture> {
  const started = await startOAuthFixture(options);
  cleanup.push(() => started.close());
  return started;
}

/** A loopback callback that records the query it is called with. */
async function callbackServer(): Promise<{ url: string; last: () => URLSearchParams | undefined }> {
  let last: URLSearchParams | undefined;
  const server: Server = createServer((req, res) => {
    last = new URL(req.url ?? "/", "http://127.0.0.1").searchParams;
    res.end("signed in");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  cleanup.push(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, "close");
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, last: () => last };
}

/** The smallest SDK OAuthClientProvider: everything in memory. */
function memoryProvider(redirectUrl: string, onRedirect: (url: URL) => void) {
  const state: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string } = {};
  const provider: OAuthClientProvider = {
    redirectUrl,
    clientMetadata: {
      client_name: "fixture-test",
      redirect_uris: [redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
    clientInformation: () => state.client,
    saveClientInformation: (client) => {
      state.client = client;
    },
    tokens: () => state.tokens,
    saveTokens: (tokens) => {
      state.tokens = tokens;
    },
    redirectToAuthorization: onRedirect,
    saveCodeVerifier: (verifier) => {
      state.verifier = verifier;
    },
    codeVerifier: () => state.verifier ?? "",
    invalidateCredentials: (scope) => {
      if (scope === "tokens" || scope === "all") delete state.tokens;
      if (scope === "client" || scope === "all") delete state.client;
    },
  };
  return { provider, state };
}

// The scope a client takes from the 401 challenge (without one, the SDK asks for all of `scopes_supported`).
async function signIn(server: OAuthFixture, scope = "mcp:read") {
  const callback = await callbackServer();
  const browser = createBrowserStandIn();
  let authorizationUrl: URL | undefined;
  const { provider, state } = memoryProvider(callback.url, (url) => (authorizationUrl = url));
  expect(await auth(provider, { serverUrl: server.url, scope })).toBe("REDIRECT");
  await browser.openUrl(authorizationUrl!);
  const code = callback.last()?.get("code");
  expect(code, JSON.stringify(browser.lastPage)).toBeTruthy();
  // The authorization server names itself in the callback (RFC 9207); the SDK checks it.
  const iss = callback.last()?.get("iss");
  expect(iss).toBe(server.issuer);
  expect(await auth(provider, { serverUrl: server.url, scope, authorizationCode: code!, iss: iss! })).toBe(
    "AUTHORIZED",
  );
  return { provider, state, callback, browser };
}

async function callWhoami(url: string, token: string | undefined): Promise<string> {
  const client = new Client({ name: "t", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: "whoami", arguments: {} });
    return (result.content as Array<{ text: string }>)[0]!.text;
  } finally {
    await client.close();
  }
}

describe("startOAuthFixture", () => {
  it("challenges a request without a token with 401, naming its metadata and scope", async () => {
    const server = await fixture();
    const response = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(
      new RegExp(
        `^Bearer .*scope="mcp:read".*resource_metadata="${server.url.replace("/mcp", "")}/\\.well-known/oauth-protected-resource/mcp"`,
      ),
    );
    const metadata = await (
      await fetch(`${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`)
    ).json();
    expect(metadata).toMatchObject({ resource: server.url, authorization_servers: [server.issuer] });
    expect(server.counts.unauthorized).toBe(1);
  });

  it("signs a client in through the SDK's auth() and the browser stand-in; the token opens the MCP server", async () => {
    const server = await fixture();
    const { state, provider } = await signIn(server);
    expect(state.tokens).toMatchObject({ token_type: "Bearer", scope: "mcp:read" });
    expect(state.tokens?.refresh_token).toBeTruthy();
    expect(await callWhoami(server.url, state.tokens!.access_token)).toBe("subject=alice scopes=mcp:read");
    expect(server.counts).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });
    expect(server.secrets()).toEqual(
      expect.arrayContaining([state.tokens!.access_token, state.tokens!.refresh_token]),
    );

    // Refresh rotates the refresh token; the old access token stays valid until it expires.
    const before = state.tokens!;
    expect(await auth(provider, { serverUrl: server.url })).toBe("AUTHORIZED");
    expect(state.tokens!.refresh_token).not.toBe(before.refresh_token);
    expect(server.counts.refreshes).toBe(1);
  });

  it("revokes access tokens (401) and refresh tokens (invalid_grant) on demand", async () => {
    const server = await fixture();
    const { state, provider } = await signIn(server);
    expect(server.revokeAccessTokens()).toBeGreaterThan(0);
    await expect(callWhoami(server.url, state.tokens!.access_token)).rejects.toThrow(/invalid_token/);
    server.revokeRefreshTokens();
    // The SDK drops the refused tokens and starts a new authorization.
    expect(await auth(provider, { serverUrl: server.url })).toBe("REDIRECT");
    expect(server.counts.refreshFailures).toBe(1);
  });

  it("answers admin_action 403 insufficient_scope until the step-up scope is granted", async () => {
    const server = await fixture();
    const { state } = await signIn(server);
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${state.tokens!.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "admin_action" } }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toContain(
      'error="insufficient_scope", scope="mcp:read mcp:admin"',
    );
    const wider = await signIn(server, "mcp:read mcp:admin");
    expect(wider.state.tokens?.scope).toBe("mcp:read mcp:admin");
  });

  it("declines sign-ins with access_denied when told to", async () => {
    const server = await fixture();
    server.denyConsent = true;
    const callback = await callbackServer();
    let authorizationUrl: URL | undefined;
    const { provider } = memoryProvider(callback.url, (url) => (authorizationUrl = url));
    await auth(provider, { serverUrl: server.url, scope: "mcp:read" });
    await createBrowserStandIn().openUrl(authorizationUrl!);
    expect(callback.last()?.get("error")).toBe("access_denied");
  });

  it("serves several endpoints, sharing one resource when asked", async () => {
    const server = await fixture({ endpoints: ["/a/mcp", "/b/mcp"], resource: "origin" });
    const { state } = await signIn(server);
    for (const url of server.urls)
      expect(await callWhoami(url, state.tokens!.access_token)).toContain("alice");
  });
});
