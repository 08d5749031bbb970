import { createMemoryAuthStorage } from "@mcp-rt/config";
import { createBrowserStandIn, echoServer, type OAuthFixture, startOAuthFixture } from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { MCPManagerOptions } from "../src/index.js";
import { recordEvents, textOf, useManagers } from "./helpers.js";

const manager = useManagers();
const fixtures: OAuthFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

async function signInWorld(options: MCPManagerOptions = {}) {
  const fixture = await startOAuthFixture();
  fixtures.push(fixture);
  const browser = createBrowserStandIn();
  const authStorage = createMemoryAuthStorage();
  const m = manager({ authStorage, openUrl: browser.openUrl, ...options });
  return { fixture, browser, authStorage, m };
}

describe("servers that need a sign-in", () => {
  it("start as needs-auth without opening a browser, and calls say how to sign in", async () => {
    const { fixture, browser, m } = await signInWorld();
    const events = recordEvents(m);
    const result = await m.connectServers({ linear: fixture.config(), local: echoServer() });
    expect(result.connectedServers).toEqual(["local"]);
    expect(result.errors.get("linear")?.code).toBe("SIGN_IN_REQUIRED");
    expect(result.errors.get("linear")?.message).toContain("/mcp login linear");
    expect(browser.visits).toEqual([]);
    expect(events).toContain("server:needs-auth linear");
    expect(events).not.toContain("server:failed linear");
    const state = m.getServerStates().find((s) => s.name === "linear");
    expect(state).toMatchObject({
      status: "needs-auth",
      toolCount: 0,
      lastError: { code: "SIGN_IN_REQUIRED" },
    });
    expect(m.getConnectionStatus("linear")).toBe("disconnected");
    // Never a reconnect timer: waiting for it gives the sign-in error at once.
    await expect(m.waitForConnection("linear")).rejects.toMatchObject({ code: "SIGN_IN_REQUIRED" });
    expect(events).not.toContain("server:reconnecting linear");
  });

  it("login signs in through the browser, connects and lists; a new manager on the same store needs no browser", async () => {
    const { fixture, browser, authStorage, m } = await signInWorld();
    await m.connectServers({ linear: fixture.config() });
    await m.login("linear");
    expect(browser.visits).toHaveLength(1);
    expect(m.getServerStates()[0]).toMatchObject({ status: "connected" });
    const whoami = m.getTools().find((tool) => tool.name === "mcp_linear_whoami")!;
    expect(textOf(await whoami.execute("c", {}))).toContain("subject=alice");
    expect(await m.signInStatus("linear")).toMatchObject({ signedIn: true, issuer: `${fixture.issuer}/` });
    // Logging in to a connected server is nothing to do.
    await m.login("linear");
    expect(browser.visits).toHaveLength(1);

    const restarted = manager({ authStorage, openUrl: browser.openUrl });
    const result = await restarted.connectServers({ linear: fixture.config() });
    expect(result.connectedServers).toEqual(["linear"]);
    expect(browser.visits).toHaveLength(1);
    expect(fixture.counts.registrations).toBe(1);
  });

  it("logout deletes the sign-in and leaves the server needs-auth; an expired refresh token does too", async () => {
    const { fixture, m } = await signInWorld();
    await m.connectServers({ linear: fixture.config() });
    await m.login("linear");
    expect(await m.logout("linear")).toBe(true);
    expect(await m.signInStatus("linear")).toBeUndefined();
    expect(m.getServerStates()[0]).toMatchObject({ status: "needs-auth", toolCount: 0 });
    expect(m.getTools()).toEqual([]);

    await m.login("linear");
    fixture.revokeAccessTokens();
    fixture.revokeRefreshTokens();
    const whoami = m.getTools().find((tool) => tool.name === "mcp_linear_whoami")!;
    const result = await whoami.execute("c", {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("/mcp login linear");
    await expect.poll(() => m.getServerStates()[0]?.status).toBe("needs-auth");
  });

  it("opens an auth store from a URL, and refuses one it cannot use", async () => {
    const fixture = await startOAuthFixture();
    fixtures.push(fixture);
    const browser = createBrowserStandIn();
    const m = manager({ authStorage: "memory:", openUrl: browser.openUrl });
    await m.connectServers({ linear: fixture.config() });
    await m.login("linear");
    expect(await m.signInStatus("linear")).toMatchObject({ signedIn: true });
    expect(() => manager({ authStorage: "ftp://nowhere" })).toThrow(
      expect.objectContaining({
        code: "CONFIG_INVALID",
        message: expect.stringMatching(/option authStorage/),
      }),
    );
  });

  it("refuses to sign in a local server, or without an auth store", async () => {
    const m = manager();
    await m.connectServers({ local: echoServer() });
    await expect(m.login("local")).rejects.toMatchObject({ code: "CONFIG_INVALID" });
    await expect(m.login("nobody")).rejects.toMatchObject({ code: "UNKNOWN_SERVER" });
    const fixture = await startOAuthFixture();
    fixtures.push(fixture);
    await m.connectServers({ remote: fixture.config() });
    await expect(m.login("remote")).rejects.toMatchObject({
      code: "AUTH_REQUIRED",
      message: /no authStorage/,
    });
  });

  it("never puts a token, code or secret in an error, event or state", async () => {
    const { fixture, m } = await signInWorld();
    const seen: string[] = [];
    m.on("server:needs-auth", ({ error }) => seen.push(error.message, JSON.stringify(error.details)));
    await m.connectServers({ linear: fixture.config() });
    await m.login("linear");
    await m.logout("linear");
    seen.push(JSON.stringify(m.getServerStates()), String(JSON.stringify(await m.signInStatus("linear"))));
    for (const secret of fixture.secrets()) for (const text of seen) expect(text).not.toContain(secret);
  });
});
