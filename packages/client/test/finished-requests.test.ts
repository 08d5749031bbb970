import { setTimeout as sleep, setImmediate as tick } from "node:timers/promises";
import { callTool, listTools, type MCPServerConnection, ping } from "@mcp-rt/client";
import { manyToolsServer } from "@mcp-rt/testing";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { getConnectionInternals } from "../src/server-connection.js";
import { until, useConnections } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const { connect } = useConnections();

/** Records every message the client sends from now on. */
function recordSent(connection: MCPServerConnection): JSONRPCMessage[] {
  const transport = getConnectionInternals(connection).client.transport!;
  const sent: JSONRPCMessage[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  return sent;
}

const cancellations = (sent: JSONRPCMessage[]): JSONRPCMessage[] =>
  sent.filter((message) => "method" in message && message.method === "notifications/cancelled");

describe("requests that finished", () => {
  it("are not cancelled when the caller's signal aborts later (listTools pages, callTool, ping)", async () => {
    const connection = await connect({
      name: "many",
      config: manyToolsServer(250, { pageSize: 100, slowTool: true }),
    });
    const sent = recordSent(connection);
    const controller = new AbortController();
    const { signal } = controller;

    expect(await listTools(connection, { signal })).toHaveLength(252);
    await callTool(connection, { name: "echo", args: { message: "hi" }, signal });
    await ping(connection, { signal });
    // Three pages, one call, one ping went out.
    expect(sent.filter((message) => "id" in message && "method" in message)).toHaveLength(5);

    // A call still running when the signal aborts is the only one cancelled.
    const running = callTool(connection, { name: "slow", args: { ms: 5000, steps: 50 }, signal });
    await until(() =>
      sent.some(
        (message) =>
          "method" in message && message.method === "tools/call" && message.params?.name === "slow",
      ),
    );
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: "AbortError" });
    await tick();
    const cancelled = cancellations(sent);
    expect(cancelled).toHaveLength(1);
    const slowCall = sent.find(
      (message) => "method" in message && message.method === "tools/call" && message.params?.name === "slow",
    );
    expect(cancelled[0]).toMatchObject({ params: { requestId: (slowCall as { id: number }).id } });
  });

  it("the connect's initialize is not cancelled once its timeout passes or its signal aborts", async () => {
    const controller = new AbortController();
    const timeout = 3000;
    const started = performance.now();
    const connection = await connect({
      name: "many",
      config: { ...manyToolsServer(3), timeout },
      signal: controller.signal,
    });
    const sent = recordSent(connection);
    // The connect's deadline passes on a healthy connection, then its caller's signal aborts.
    await sleep(Math.max(0, started + timeout + 200 - performance.now()));
    controller.abort();
    await tick();
    expect(cancellations(sent)).toEqual([]);
    await ping(connection);
    expect(connection.closed).toBe(false);
  });

  it("an already aborted signal still rejects at once with AbortError", async () => {
    const connection = await connect({ name: "many", config: manyToolsServer(3) });
    const signal = AbortSignal.abort();
    await expect(
      callTool(connection, { name: "echo", args: { message: "x" }, signal }),
    ).rejects.toMatchObject({
      name: "AbortError",
    });
    await expect(listTools(connection, { signal })).rejects.toMatchObject({ name: "AbortError" });
    await expect(ping(connection, { signal })).rejects.toMatchObject({ name: "AbortError" });
  });
});
