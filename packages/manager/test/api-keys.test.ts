import { createMemoryAuthStorage } from "@mcp-rt/config";
import { echoServer, type HttpFixture, startHttpFixture } from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { textOf, useManagers } from "./helpers.js";

const manager = useManagers();
const servers: HttpFixture[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("API keys in the auth store", () => {
  it("a server whose key is missing fails; setApiKey stores it and starts the server with it", async () => {
    const server = await startHttpFixture({ bearerToken: "k-123" });
    servers.push(server);
    const authStorage = createMemoryAuthStorage();
    const m = manager({ authStorage });
    const config = { url: server.config.url, auth: { type: "apikey" as const, credentialId: "fixture-key" } };
    const first = await m.connectServers({ remote: config });
    expect(first.errors.get("remote")?.code).toBe("AUTH_REQUIRED");
    expect(first.errors.get("remote")?.message).toContain("fixture-key");

    await m.setApiKey("remote", "k-123");
    expect(await authStorage.get("fixture-key")).toBe("k-123");
    await m.waitForConnection("remote");
    const echo = m.getTools().find((tool) => tool.name === "mcp_remote_echo")!;
    expect(textOf(await echo.execute("c", { message: "with a key" }))).toContain("with a key");
  });

  it("refuses a server that takes no key, and an empty key", async () => {
    const m = manager({ authStorage: createMemoryAuthStorage() });
    await m.connectServers({
      local: echoServer(),
      keyed: { ...echoServer(), auth: { type: "apikey", credentialId: "x" } },
    });
    await expect(m.setApiKey("local", "secret")).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: /takes no API key/,
    });
    await expect(m.setApiKey("keyed", "  ")).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: /empty/,
    });
    await expect(m.setApiKey("nobody", "secret")).rejects.toMatchObject({ code: "UNKNOWN_SERVER" });
  });
});
