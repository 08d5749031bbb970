import { callTool, type MCPServerConnection } from "@mcp-rt/client";
import { type HttpFixture, modernServer, startHttpFixture } from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { useConnections } from "./helpers.js";
import { checkNoPortsLeftAfterFile, useTestServers } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const { connect } = useConnections();
const servers = useTestServers();
let fixture: HttpFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** Starts `slow` and aborts it at its first progress; resolves with what the call rejected with. */
async function abortedSlowCall(connection: MCPServerConnection): Promise<unknown> {
  const controller = new AbortController();
  return callTool(connection, {
    name: "slow",
    args: { ms: 20_000, steps: 100 },
    signal: controller.signal,
    onProgress: () => controller.abort(),
  }).catch((error: unknown) => error);
}

describe("cancelling a call on a 2026-07-28 connection", () => {
  it("over stdio: sends notifications/cancelled, and the server stops the work", async () => {
    const connection = await connect({ name: "modern", config: modernServer({ slowTool: true }) });
    expect(connection.protocolVersion).toBe("2026-07-28");
    expect(await abortedSlowCall(connection)).toMatchObject({ name: "AbortError" });
    await expect
      .poll(() => connection.stderrTail(), { timeout: 5000 })
      .toMatch(/slow cancelled after \d+ of 100 steps/);
    expect((await callTool(connection, { name: "echo", args: { message: "after" } })).content).toEqual([
      { type: "text", text: "after" },
    ]);
  });

  it("over HTTP: closes the request's stream, which stops the work, and posts no notifications/cancelled", async () => {
    fixture = await startHttpFixture({ era: "modern", slowTool: true });
    const posted: string[] = [];
    const proxy = await servers.proxy(new URL(fixture.url).origin, {
      intercept: (req, _res, body) => {
        if (req.method === "POST") posted.push(body);
        return false;
      },
    });
    const connection = await connect({
      name: "modern",
      config: { type: "http", url: `${proxy.origin}/mcp` },
    });
    expect(connection.protocolVersion).toBe("2026-07-28");
    expect(await abortedSlowCall(connection)).toMatchObject({ name: "AbortError" });
    await expect
      .poll(() => fixture?.stderr(), { timeout: 5000 })
      .toMatch(/slow cancelled after \d+ of 100 steps/);
    expect(posted.filter((body) => body.includes('"tools/call"'))).toHaveLength(1);
    expect(posted.filter((body) => body.includes("notifications/cancelled"))).toEqual([]);
  });
});
