import { closeConnection, type MCPServerConnection, ping } from "@mcp-rt/client";
import type { McpRtError } from "@mcp-rt/config";
import { echoServer, modernServer, readPidFileEntries } from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { useConnections, useTempDir } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const connections = useConnections();
const tmp = useTempDir("mcp-rt-ping-");
const stopped: number[] = [];
// Registered after useConnections, so it runs before the connections close.
afterEach(() => {
  // A stopped process cannot act on SIGTERM: let it run again so that close ends it quickly.
  for (const pid of stopped.splice(0)) {
    try {
      process.kill(pid, "SIGCONT");
    } catch {
      // Already gone.
    }
  }
});

function connect(): Promise<MCPServerConnection> {
  return connections.connect({ name: "pinged", config: echoServer() });
}

describe("ping", () => {
  it("resolves when the server answers", async () => {
    const connection = await connect();
    await expect(ping(connection, { timeout: 5000 })).resolves.toBeUndefined();
  });

  it("asks a 2026-07-28 server, which has no ping, with server/discover", async () => {
    const pidFile = `${tmp()}/pids`;
    const connection = await connections.connect({ name: "modern", config: modernServer({ pidFile }) });
    expect(connection.era).toBe("modern");
    await expect(ping(connection, { timeout: 5000 })).resolves.toBeUndefined();
    // The era probe, then the ping.
    expect(readPidFileEntries(pidFile).filter((entry) => entry.role === "probe")).toHaveLength(2);
  });

  it("rejects with REQUEST_TIMEOUT when a stopped server does not answer in time", async () => {
    const connection = await connect();
    process.kill(connection.pid!, "SIGSTOP");
    stopped.push(connection.pid!);
    const started = performance.now();
    const error = (await ping(connection, { timeout: 200 }).catch((e: unknown) => e)) as McpRtError;
    expect(error).toMatchObject({ name: "McpRtError", code: "REQUEST_TIMEOUT", server: "pinged" });
    expect(error.message).toMatch(/ping to MCP server "pinged" timed out after 200 ms/);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it("rejects with TRANSPORT_CLOSED on a closed connection, and with AbortError on abort", async () => {
    const connection = await connect();
    const controller = new AbortController();
    process.kill(connection.pid!, "SIGSTOP");
    stopped.push(connection.pid!);
    const aborted = ping(connection, { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    process.kill(connection.pid!, "SIGCONT");
    await closeConnection(connection);
    await expect(ping(connection)).rejects.toMatchObject({ code: "TRANSPORT_CLOSED", server: "pinged" });
  });
});
