import {
  createBrowserStandIn,
  type OAuthFixture,
  startHttpFixture,
  startOAuthFixture,
} from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MCPCommandController } from "../src/mcp-command-controller.js";
import { activeMCPNames, createWorld, type World } from "./helpers.js";

let world: World;
const closers: Array<() => Promise<void>> = [];
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  // The servers go first, so the world's check for leftover processes sees none of theirs.
  await Promise.all(closers.splice(0).map((close) => close()));
  await world.cleanup();
});

async function oauthServer(): Promise<OAuthFixture> {
  const fixture = await startOAuthFixture();
  closers.push(() => fixture.close());
  return fixture;
}

describe("/mcp login, logout and list with sign-ins", () => {
  it("a server that needs a sign-in is 🔒 in /mcp list; /mcp login signs in and its tools arrive; /mcp logout", async () => {
    const fixture = await oauthServer();
    await world.write(world.userFile, { mcpServers: { linear: fixture.config() } });
    const browser = createBrowserStandIn();
    const { session } = await world.start({ manager: { openUrl: browser.openUrl } });
    const mcp = new MCPCommandController(session);
    expect(browser.visits).toEqual([]);

    const before = await mcp.handle("/mcp list");
    expect(before.text).toMatch(/🔒 linear\s+needs auth · 0 tools · sign in with \/mcp login linear/);

    const login = await mcp.handle("/mcp login linear");
    expect(login.ok).toBe(true);
    expect(login.text).toMatch(/● linear: signed in at http:\/\/127\.0\.0\.1:\d+\/; connected, 2 tools/);
    expect(browser.visits).toHaveLength(1);
    expect(activeMCPNames(session).sort()).toEqual(["mcp_linear_admin_action", "mcp_linear_whoami"]);
    expect((await mcp.handle("/mcp list")).text).toMatch(
      /● linear\s+connected · 2 tools · \d+ ms · 2025-11-25 \(legacy\) · signed in at http/,
    );

    const logout = await mcp.handle("/mcp logout linear");
    expect(logout.text).toContain("signed out");
    expect(activeMCPNames(session)).toEqual([]);
    expect((await mcp.handle("/mcp list")).text).toMatch(/🔒 linear/);
    for (const secret of fixture.secrets()) {
      expect(JSON.stringify([before, login, logout])).not.toContain(secret);
    }
  });

  it("the sign-in outlives the session: a new session on the same home connects without a browser", async () => {
    const fixture = await oauthServer();
    await world.write(world.userFile, { mcpServers: { linear: fixture.config() } });
    const browser = createBrowserStandIn();
    const first = await world.start({ manager: { openUrl: browser.openUrl } });
    await new MCPCommandController(first.session).handle("/mcp login linear");
    await first.session.dispose();

    const second = await world.start({ manager: { openUrl: browser.openUrl } });
    expect(activeMCPNames(second.session).sort()).toEqual(["mcp_linear_admin_action", "mcp_linear_whoami"]);
    expect(browser.visits).toHaveLength(1);
  });

  it("/mcp key reads a key without echo, stores it and starts the server; without a reader it says what to do", async () => {
    const server = await startHttpFixture({ bearerToken: "k-123" });
    closers.push(() => server.close());
    await world.write(world.userFile, {
      mcpServers: { keyed: { url: server.config.url, auth: { type: "apikey", credentialId: "keyed-key" } } },
    });
    const { session } = await world.start();
    const prompts: string[] = [];
    const mcp = new MCPCommandController(session, {
      readSecret: async (prompt) => {
        prompts.push(prompt);
        return "k-123";
      },
    });
    const result = await mcp.handle("/mcp key keyed");
    expect(result.ok).toBe(true);
    expect(result.text).not.toContain("k-123");
    expect(result.text).toMatch(/Key stored for keyed\.\n● keyed: connected/);
    expect(prompts).toEqual(["API key for keyed (input hidden): "]);

    const plain = await new MCPCommandController(session).handle("/mcp key keyed");
    expect(plain.ok).toBe(false);
    expect(plain.text).toContain("mcp-rt-config key set");
  });
});
