import { type ChildProcess, spawn } from "node:child_process";
import diagnostics from "node:diagnostics_channel";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fixtureServerPath, startHttpFixture } from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { nextEvent, recordEvents, textOf, useManagers } from "./helpers.js";

const manager = useManagers();

const restarted: ChildProcess[] = [];
afterEach(async () => {
  for (const child of restarted.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill("SIGKILL");
    await once(child, "exit");
  }
});

/** Starts the fixture over Streamable HTTP on a given port (startHttpFixture always picks a free one). */
async function startOnPort(port: number): Promise<void> {
  const child = spawn(process.execPath, [fixtureServerPath, "--http", `--port=${port}`], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  restarted.push(child);
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) if (line.startsWith("LISTENING ")) return;
  throw new Error("the restarted fixture did not listen");
}

/** The `mcp-session-id` headers of this process's fetch requests, from undici's diagnostics channel. */
function recordSessionIds(): { ids(): string[]; stop(): void } {
  const ids: string[] = [];
  const onRequest = (message: unknown): void => {
    const headers = (message as { request: { headers: string | string[] } }).request.headers;
    const lines = Array.isArray(headers) ? headers.join("\r\n") : headers;
    const id = /mcp-session-id(?::\s*|\r\n)([\w-]+)/i.exec(lines)?.[1];
    if (id && ids.at(-1) !== id) ids.push(id);
  };
  diagnostics.subscribe("undici:request:create", onRequest);
  return { ids: () => [...ids], stop: () => diagnostics.unsubscribe("undici:request:create", onRequest) };
}

describe("automatic reconnect over Streamable HTTP", () => {
  it("a remote server that goes away and comes back is reconnected", async () => {
    const server = await startHttpFixture();
    const port = Number(new URL(server.url).port);
    const m = manager({ reconnect: { initialDelayMs: 100, maxDelayMs: 300, maxFailedBursts: 100 } });
    try {
      const result = await m.connectServers({ remote: server.config }, {});
      expect(result.connectedServers).toEqual(["remote"]);
      const events = recordEvents(m);
      const disconnected = nextEvent(m, "server:disconnected", "remote");
      await server.close();
      expect((await disconnected).reason).toMatch(/"remote"/);
      expect(m.getServerStates()[0]).toMatchObject({ status: "reconnecting", toolCount: 1 });
      // It stays down for a while: attempts fail (connection refused) and it keeps trying.
      await expect
        .poll(() => events.filter((e) => e === "server:reconnecting remote").length)
        .toBeGreaterThan(2);
      expect(m.getServerStates()[0]?.status).toBe("reconnecting");

      const connected = nextEvent(m, "server:connected", "remote");
      await startOnPort(port);
      await connected;
      expect(m.getServerStates()[0]).toMatchObject({ status: "connected", toolCount: 1 });
      const echo = m.getTools().find((t) => t.name === "mcp_remote_echo")!;
      expect(textOf(await echo.execute("c", { message: "over http again" }))).toBe("over http again");
    } finally {
      await m.disconnectAll();
      await server.close();
    }
  });

  it("a lost session (HTTP 404 for its session id) is reconnected the same way", async () => {
    await using server = await startHttpFixture();
    const m = manager({ reconnect: { initialDelayMs: 50, maxDelayMs: 300 } });
    const sessions = recordSessionIds();
    try {
      await m.connectServers({ remote: server.config }, {});
      const [sessionId] = sessions.ids();
      expect(sessionId).toBeTypeOf("string");
      const echo = m.getTools().find((t) => t.name === "mcp_remote_echo")!;
      const disconnected = nextEvent(m, "server:disconnected", "remote");
      const connected = nextEvent(m, "server:connected", "remote");
      // Behind the client's back, the server ends the session (as after a restart or an expiry).
      const deleted = await fetch(server.url, {
        method: "DELETE",
        headers: { "mcp-session-id": sessionId! },
      });
      expect(deleted.status).toBe(200);

      const first = await echo.execute("c1", { message: "still there?" });
      expect(textOf(first)).toMatch(/^MCP error: .*no longer knows session/);
      expect((await disconnected).reason).toMatch(/"remote".*no longer knows session/);
      await connected;
      expect(textOf(await echo.execute("c2", { message: "new session" }))).toBe("new session");
      expect(sessions.ids().at(-1)).not.toBe(sessionId);
    } finally {
      sessions.stop();
    }
  });
});
