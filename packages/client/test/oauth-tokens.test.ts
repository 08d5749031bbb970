import { setTimeout as sleep } from "node:timers/promises";
import { callTool, isSignInRequired, readSignInStatus, signOut } from "@mcp-rt/client";
import { createMemoryAuthStorage } from "@mcp-rt/config";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SignInRecords } from "../src/oauth/sign-in-records.js";
import { useConnections } from "./helpers.js";
import { rejection, useOAuthKit, whoami } from "./oauth-helpers.js";

const kit = useOAuthKit();
const { connect } = useConnections();

describe("stored OAuth tokens", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("keep the SDK's issuer stamps on the tokens and the registration, so it never warns or signs in again", async () => {
    // The SDK binds what it saves to the authorization server that issued it (an `issuer`
    // stamp) and warns on every read of a credential without one.
    const warn = vi.spyOn(console, "warn");
    const fixture = await kit.fixture();
    const storage = createMemoryAuthStorage();
    await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });

    const records = new SignInRecords(storage);
    const server = await records.readBinding(fixture.url);
    const record = server && (await records.readSignIn(server));
    expect(record?.tokens).toMatchObject({ issuer: fixture.issuer });
    expect(record?.client?.info).toMatchObject({ issuer: fixture.issuer });

    // A restart that refreshes, then a call that refreshes after a 401: the stored values are read back.
    fixture.revokeAccessTokens();
    const again = await connect({ name: "linear", config: fixture.config(), oauth: kit.oauth(storage) });
    fixture.revokeAccessTokens();
    expect(await whoami(again)).toContain("alice");
    expect(fixture.counts).toMatchObject({ refreshes: 2, authorizations: 1 });
    expect(warn.mock.calls.flat().filter((text) => /mcp-sdk/.test(String(text)))).toEqual([]);
  });

  it("are refreshed before they expire, without a 401, and the rotated refresh token is kept", async () => {
    const fixture = await kit.fixture({ accessTokenTtlSeconds: 2 });
    const storage = kit.fileStorage();
    const connection = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    const before = await readSignInStatus(fixture.config(), storage);
    const rejected = fixture.counts.unauthorized;
    await sleep(2100);
    expect(await whoami(connection)).toContain("alice");
    expect(fixture.counts).toMatchObject({ refreshes: 1, unauthorized: rejected });
    const after = await readSignInStatus(fixture.config(), storage);
    expect(after?.expiresAt).toBeGreaterThan(before?.expiresAt ?? Number.POSITIVE_INFINITY);
    // Rotation: the first refresh token is spent; the stored one works for the next refresh.
    fixture.revokeAccessTokens();
    expect(await whoami(connection)).toContain("alice");
    expect(fixture.counts).toMatchObject({ refreshes: 2, refreshFailures: 0 });
    expect(kit.browser.visits).toHaveLength(1);
  });

  it("give the connection an auth context of the sign-in (a digest), the same on the next connect", async () => {
    const fixture = await kit.fixture();
    const storage = kit.fileStorage();
    const connection = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    expect(connection.authContext).toMatch(/^[0-9a-f]{64}$/);
    const again = await connect({ name: "linear", config: fixture.config(), oauth: kit.oauth(storage) });
    expect(again.authContext).toBe(connection.authContext);
  });

  it("are refreshed once on a 401 (a revoked access token), and the request goes through", async () => {
    const fixture = await kit.fixture();
    const storage = createMemoryAuthStorage();
    const connection = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    fixture.revokeAccessTokens();
    expect(await whoami(connection)).toContain("alice");
    expect(fixture.counts.refreshes).toBe(1);
    // A restart after another revocation refreshes at connect time.
    fixture.revokeAccessTokens();
    const again = await connect({ name: "linear", config: fixture.config(), oauth: kit.oauth(storage) });
    expect(await whoami(again)).toContain("alice");
    expect(fixture.counts.refreshes).toBe(2);
    expect(kit.browser.visits).toHaveLength(1);
  });

  it("an expired refresh token clears the tokens and asks for a sign-in; signing in again reuses the registration", async () => {
    const fixture = await kit.fixture();
    const storage = kit.fileStorage();
    await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    // As an agent connects at startup: no browser may open.
    const connection = await connect({ name: "linear", config: fixture.config(), oauth: kit.oauth(storage) });
    fixture.revokeAccessTokens();
    fixture.revokeRefreshTokens();
    const error = await rejection(callTool(connection, { name: "whoami", args: {} }));
    expect(isSignInRequired(error)).toBe(true);
    expect(error.details).toMatchObject({ reason: "expired", status: 401 });
    expect(error.message).toMatch(
      /^The call of tool "whoami" to MCP server "linear" failed: its sign-in expired or was revoked/,
    );
    expect(await readSignInStatus(fixture.config(), storage)).toMatchObject({
      signedIn: false,
      refreshable: false,
    });

    const restart = await rejection(
      connect({ name: "linear", config: fixture.config(), oauth: kit.oauth(kit.fileStorage()) }),
    );
    expect(isSignInRequired(restart)).toBe(true);

    const login = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(kit.fileStorage(), { interactive: true }),
    });
    expect(await whoami(login)).toContain("alice");
    expect(fixture.counts).toMatchObject({ registrations: 1, authorizations: 2, refreshFailures: 1 });
  });

  it("an interactive connection whose refresh token is refused signs in again, and the call goes through", async () => {
    const fixture = await kit.fixture();
    const connection = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(createMemoryAuthStorage(), { interactive: true }),
    });
    fixture.revokeAccessTokens();
    fixture.revokeRefreshTokens();
    expect(await whoami(connection)).toContain("alice");
    expect(kit.browser.visits).toHaveLength(2);
    expect(fixture.counts).toMatchObject({ refreshFailures: 1, registrations: 1, codeExchanges: 2 });
  });

  it('interactive: "connect" signs in to connect, then never opens a browser for a call', async () => {
    const fixture = await kit.fixture();
    const connection = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(createMemoryAuthStorage(), { interactive: "connect" }),
    });
    expect(await whoami(connection)).toContain("alice");
    expect(kit.browser.visits).toHaveLength(1);
    fixture.revokeAccessTokens();
    fixture.revokeRefreshTokens();
    const error = await rejection(callTool(connection, { name: "whoami", args: {} }));
    expect(isSignInRequired(error)).toBe(true);
    expect(kit.browser.visits).toHaveLength(1);
  });

  it("logout deletes the tokens and the registration; the next sign-in registers anew", async () => {
    const fixture = await kit.fixture();
    const storage = kit.fileStorage();
    await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    expect(await signOut(fixture.config(), storage)).toBe(true);
    expect(await signOut(fixture.config(), storage)).toBe(false);
    expect(await readSignInStatus(fixture.config(), storage)).toBeUndefined();
    const error = await rejection(
      connect({ name: "linear", config: fixture.config(), oauth: kit.oauth(kit.fileStorage()) }),
    );
    expect(error.details).toMatchObject({ reason: "not-signed-in" });
    await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    expect(fixture.counts).toMatchObject({ registrations: 2, authorizations: 2 });
  });

  it("a server that moves to another authorization server does not present the old tokens there", async () => {
    const first = await kit.fixture();
    const storage = createMemoryAuthStorage();
    await connect({
      name: "linear",
      config: first.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    const port = Number(new URL(first.url).port);
    await first.close();
    const moved = await kit.fixture({ port });
    expect(moved.url).toBe(first.url);
    const error = await rejection(
      connect({ name: "linear", config: moved.config(), oauth: kit.oauth(storage) }),
    );
    expect(isSignInRequired(error)).toBe(true);
    expect(error.details).toMatchObject({ reason: "not-signed-in" });
    expect(moved.counts).toMatchObject({ refreshes: 0, refreshFailures: 0 });
    await connect({
      name: "linear",
      config: moved.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    expect(await readSignInStatus(moved.config(), storage)).toMatchObject({
      signedIn: true,
      issuer: `${moved.issuer}/`,
    });
  });
});
