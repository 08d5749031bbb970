import { once } from "node:events";
import { readFile, stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { isSignInRequired, listTools, readSignInStatus } from "@mcp-rt/client";
import { createMemoryAuthStorage } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useConnections } from "./helpers.js";
import { errorTexts, expectNoSecrets, rejection, useOAuthKit, whoami } from "./oauth-helpers.js";

const kit = useOAuthKit();
const { connect } = useConnections();

describe("signing in to an MCP server that needs OAuth", () => {
  it("fails at once with a needs-sign-in SIGN_IN_REQUIRED when not interactive, and opens no browser", async () => {
    const fixture = await kit.fixture();
    const started = Date.now();
    const error = await rejection(
      connect({ name: "linear", config: fixture.config(), oauth: kit.oauth(createMemoryAuthStorage()) }),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error.code).toBe("SIGN_IN_REQUIRED");
    expect(isSignInRequired(error)).toBe(true);
    expect(error.details).toMatchObject({
      reason: "not-signed-in",
      scope: "mcp:read",
      status: 401,
    });
    expect(error.message).toContain('MCP server "linear" failed: it needs you to sign in');
    expect(error.message).toContain("/mcp login linear");
    expect(kit.browser.visits).toEqual([]);
    expect(fixture.counts).toMatchObject({ registrations: 0, authorizations: 0 });
  });

  it("interactive: registers, opens the browser once, gets tokens, then connects and calls tools", async () => {
    const fixture = await kit.fixture();
    const storage = kit.fileStorage();
    const connection = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    expect((await listTools(connection)).map((tool) => tool.name).sort()).toEqual(["admin_action", "whoami"]);
    expect(await whoami(connection)).toBe("subject=alice scopes=mcp:read");
    expect(kit.browser.visits).toHaveLength(1);
    const authorization = new URL(kit.browser.visits[0]!);
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorization.searchParams.get("resource")).toBe(fixture.url);
    expect(authorization.searchParams.get("scope")).toBe("mcp:read");
    expect(authorization.searchParams.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(fixture.counts).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });
    expect(await readSignInStatus(fixture.config(), storage)).toMatchObject({
      signedIn: true,
      issuer: `${fixture.issuer}/`,
      resource: fixture.url,
      scope: "mcp:read",
      refreshable: true,
    });
    // The auth file is private, and holds no PKCE verifier once the flow is over.
    expect((await stat(kit.authFile)).mode & 0o777).toBe(0o600);
    expect(await readFile(kit.authFile, "utf8")).not.toContain("verifier");
  });

  it("a restart (a new storage on the same file) reuses the tokens: no browser, no new registration", async () => {
    const fixture = await kit.fixture();
    await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(kit.fileStorage(), { interactive: true }),
    });
    const again = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(kit.fileStorage()),
    });
    expect(await whoami(again)).toContain("alice");
    expect(kit.browser.visits).toHaveLength(1);
    expect(fixture.counts).toMatchObject({
      registrations: 1,
      authorizations: 1,
      codeExchanges: 1,
      refreshes: 0,
    });
  });

  it("a configured callback port that is taken is a clear error, not a hang", async () => {
    const fixture = await kit.fixture();
    const squatter = createServer();
    squatter.listen(0, "127.0.0.1");
    await once(squatter, "listening");
    const port = (squatter.address() as AddressInfo).port;
    try {
      const config = { ...fixture.config(), auth: { type: "oauth" as const, callbackPort: port } };
      const started = Date.now();
      const error = await rejection(
        connect({
          name: "linear",
          config,
          sourcePath: "/home/ann/.claude.json",
          oauth: kit.oauth(createMemoryAuthStorage(), { interactive: true }),
        }),
      );
      expect(Date.now() - started).toBeLessThan(5000);
      expect(error.code).toBe("SIGN_IN_REQUIRED");
      expect(error.message).toBe(
        `Cannot sign in to MCP server "linear": port ${port} on 127.0.0.1 is in use by another program; close that program, or change "auth.callbackPort" in /home/ann/.claude.json`,
      );
      expect(error.details).toMatchObject({ failure: "port-taken" });
      expect(kit.browser.visits).toEqual([]);
    } finally {
      squatter.close();
      await once(squatter, "close");
    }
  });

  it("a configured callback port that is free is used", async () => {
    const fixture = await kit.fixture();
    const probe = createServer();
    probe.listen(0, "127.0.0.1");
    await once(probe, "listening");
    const port = (probe.address() as AddressInfo).port;
    probe.close();
    await once(probe, "close");
    const config = { ...fixture.config(), auth: { type: "oauth" as const, callbackPort: port } };
    await connect({
      name: "linear",
      config,
      oauth: kit.oauth(createMemoryAuthStorage(), { interactive: true }),
    });
    expect(new URL(kit.browser.visits[0]!).searchParams.get("redirect_uri")).toBe(
      `http://127.0.0.1:${port}/callback`,
    );
  });

  it("a declined sign-in says so, and leaves the server needing a sign-in", async () => {
    const fixture = await kit.fixture();
    fixture.denyConsent = true;
    const error = await rejection(
      connect({
        name: "linear",
        config: fixture.config(),
        oauth: kit.oauth(createMemoryAuthStorage(), { interactive: true }),
      }),
    );
    expect(error.message).toMatch(
      /^Cannot sign in to MCP server "linear": the sign-in was not granted \(access_denied: The user declined the sign-in\)/,
    );
    expect(isSignInRequired(error)).toBe(true);
  });

  it("ignores a callback with the wrong state, and finishes with the right one", async () => {
    const fixture = await kit.fixture();
    let refused: number | undefined;
    const openUrl = async (url: string): Promise<void> => {
      const redirect = new URL(url).searchParams.get("redirect_uri")!;
      const forged = await fetch(`${redirect}?code=forged&state=not-the-state`);
      refused = forged.status;
      await forged.text();
      await kit.browser.openUrl(url);
    };
    const connection = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: { storage: createMemoryAuthStorage(), openUrl, interactive: true },
    });
    expect(refused).toBe(400);
    expect(await whoami(connection)).toContain("alice");
  });

  it("gives up after the time limit, and frees the callback port", async () => {
    const fixture = await kit.fixture();
    let redirect = "";
    const error = await rejection(
      connect({
        name: "linear",
        config: fixture.config(),
        oauth: {
          storage: createMemoryAuthStorage(),
          interactive: true,
          signInTimeoutMs: 300,
          openUrl: (url) => {
            redirect = new URL(url).searchParams.get("redirect_uri")!;
          },
        },
      }),
    );
    expect(error.message).toBe(
      'Cannot sign in to MCP server "linear": the sign-in was not finished in the browser within 300 ms; start it again (or raise oauth.signInTimeoutMs)',
    );
    await expect(fetch(redirect)).rejects.toThrow();
  });

  it("is cancelled by oauth.signal while it waits for the browser", async () => {
    const fixture = await kit.fixture();
    const controller = new AbortController();
    const error = await rejection(
      connect({
        name: "linear",
        config: fixture.config(),
        oauth: {
          storage: createMemoryAuthStorage(),
          interactive: true,
          signal: controller.signal,
          openUrl: () => {
            setTimeout(() => controller.abort(), 50);
          },
        },
      }),
    );
    expect(error.code).toBe("ABORTED");
    expect(error.message).toBe('Signing in to MCP server "linear" was aborted');
  });

  it("uses a pre-registered client id and secret (Basic auth at the token endpoint), without registering", async () => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1");
    await once(probe, "listening");
    const port = (probe.address() as AddressInfo).port;
    probe.close();
    await once(probe, "close");
    const secret = "pre-registered-secret-5d1e";
    const fixture = await kit.fixture({
      dynamicRegistration: false,
      clients: [
        {
          client_id: "mcp-rt-desktop",
          client_secret: secret,
          redirect_uris: [`http://127.0.0.1:${port}/callback`],
          token_endpoint_auth_method: "client_secret_basic",
        },
      ],
    });
    const storage = kit.fileStorage();
    const config = {
      ...fixture.config(),
      auth: { type: "oauth" as const, clientId: "mcp-rt-desktop", clientSecret: secret, callbackPort: port },
    };
    const connection = await connect({
      name: "linear",
      config,
      oauth: kit.oauth(storage, { interactive: true }),
    });
    expect(await whoami(connection)).toContain("alice");
    expect(fixture.counts).toMatchObject({ registrations: 0, codeExchanges: 1 });
    expect(await readFile(kit.authFile, "utf8")).not.toContain(secret);
  });

  it("never puts a token, code or secret in its errors", async () => {
    const fixture = await kit.fixture();
    const storage = createMemoryAuthStorage();
    await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    fixture.revokeAccessTokens();
    fixture.revokeRefreshTokens();
    const error = await rejection(
      connect({ name: "linear", config: fixture.config(), oauth: kit.oauth(storage) }),
    );
    expect(isSignInRequired(error)).toBe(true);
    expectNoSecrets(fixture, errorTexts(error));
  });
});
