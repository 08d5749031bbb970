import { readFile } from "node:fs/promises";
import { callTool, isSignInRequired, readSignInStatus } from "@mcp-rt/client";
import { createMemoryAuthStorage } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useConnections } from "./helpers.js";
import { errorTexts, expectNoSecrets, rejection, useOAuthKit, whoami } from "./oauth-helpers.js";

const kit = useOAuthKit();
const { connect } = useConnections();

const textOf = (result: Awaited<ReturnType<typeof callTool>>): string =>
  (result.content as Array<{ text: string }>)[0]?.text ?? "";

describe("two servers on one authorization server", () => {
  it("that share a resource: one sign-in, one browser visit; the second waits and reuses the tokens", async () => {
    const fixture = await kit.fixture({
      endpoints: ["/github/mcp", "/github/readonly/mcp"],
      resource: "origin",
    });
    const storage = kit.fileStorage();
    const [a, b] = await Promise.all(
      fixture.urls.map((url, i) =>
        connect({
          name: `server-${i}`,
          config: fixture.config(url),
          oauth: kit.oauth(storage, { interactive: true }),
        }),
      ),
    );
    expect(await whoami(a!)).toContain("alice");
    expect(await whoami(b!)).toContain("alice");
    expect(kit.browser.visits).toHaveLength(1);
    expect(fixture.counts).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });
  });

  it("with resources of their own: one sign-in each, never two at once", async () => {
    const fixture = await kit.fixture({ endpoints: ["/linear/mcp", "/notion/mcp"] });
    let open = 0;
    let most = 0;
    const openUrl = async (url: string): Promise<void> => {
      most = Math.max(most, ++open);
      try {
        await kit.browser.openUrl(url);
      } finally {
        open--;
      }
    };
    const storage = createMemoryAuthStorage();
    const connections = await Promise.all(
      fixture.urls.map((url, i) =>
        connect({
          name: `server-${i}`,
          config: fixture.config(url),
          oauth: { storage, openUrl, interactive: true },
        }),
      ),
    );
    for (const connection of connections) expect(await whoami(connection)).toContain("alice");
    expect(kit.browser.visits).toHaveLength(2);
    expect(most).toBe(1);
    const resources = kit.browser.visits.map((url) => new URL(url).searchParams.get("resource")).sort();
    expect(resources).toEqual([...fixture.urls].sort());
  });
});

describe("step-up on 403 insufficient_scope", () => {
  it("an interactive connection signs in again for the union of scopes, and the call goes through", async () => {
    const fixture = await kit.fixture();
    const storage = createMemoryAuthStorage();
    const connection = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    expect(textOf(await callTool(connection, { name: "admin_action", args: {} }))).toBe("admin action done");
    expect(kit.browser.visits).toHaveLength(2);
    expect(new URL(kit.browser.visits[1]!).searchParams.get("scope")).toBe("mcp:read mcp:admin");
    expect(await whoami(connection)).toBe("subject=alice scopes=mcp:read mcp:admin");
    expect(await readSignInStatus(fixture.config(), storage)).toMatchObject({ scope: "mcp:read mcp:admin" });
    expect(fixture.counts.insufficientScope).toBe(1);
  });

  it("a connection that may not open a browser fails the call with a needs-sign-in error naming the scope", async () => {
    const fixture = await kit.fixture();
    const storage = createMemoryAuthStorage();
    await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    const connection = await connect({ name: "linear", config: fixture.config(), oauth: kit.oauth(storage) });
    const error = await rejection(callTool(connection, { name: "admin_action", args: {} }));
    expect(isSignInRequired(error)).toBe(true);
    expect(error.details).toMatchObject({
      reason: "insufficient-scope",
      scope: "mcp:read mcp:admin",
      status: 403,
    });
    expect(error.message).toContain("it asks for more access than the sign-in grants");
    // The next interactive connection asks for the wider scope at once.
    const login = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    expect(textOf(await callTool(login, { name: "admin_action", args: {} }))).toBe("admin action done");
  });

  it("a connection starts at most three browser sign-ins on its own, then only reports", async () => {
    const fixture = await kit.fixture();
    const connection = await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(createMemoryAuthStorage(), { interactive: true }),
    });
    fixture.denyConsent = true;
    for (let i = 0; i < 2; i++) {
      const declined = await rejection(callTool(connection, { name: "admin_action", args: {} }));
      expect(declined.message).toMatch(/^Cannot sign in to MCP server "linear": the sign-in was not granted/);
    }
    expect(kit.browser.visits).toHaveLength(3);
    const error = await rejection(callTool(connection, { name: "admin_action", args: {} }));
    expect(error.details).toMatchObject({ reason: "insufficient-scope" });
    expect(kit.browser.visits).toHaveLength(3);
  });
});

describe("secrets", () => {
  it("no token, code or secret shows up in errors, their causes, or the error events of connections", async () => {
    const fixture = await kit.fixture();
    const storage = kit.fileStorage();
    await connect({
      name: "linear",
      config: fixture.config(),
      oauth: kit.oauth(storage, { interactive: true }),
    });
    const connection = await connect({ name: "linear", config: fixture.config(), oauth: kit.oauth(storage) });
    const events: string[] = [];
    connection.onError((error) => events.push(errorTexts(error)));
    const texts = [errorTexts(await rejection(callTool(connection, { name: "admin_action", args: {} })))];
    fixture.revokeAccessTokens();
    fixture.revokeRefreshTokens();
    texts.push(errorTexts(await rejection(callTool(connection, { name: "whoami", args: {} }))));
    texts.push(
      errorTexts(
        await rejection(connect({ name: "linear", config: fixture.config(), oauth: kit.oauth(storage) })),
      ),
    );
    expectNoSecrets(fixture, [...texts, ...events].join("\n"));
    // They are in the auth file, which is what it is for.
    expect(await readFile(kit.authFile, "utf8")).toContain("refresh_token");
  });
});
