import { setTimeout as sleep } from "node:timers/promises";
import { callTool, listTools, type MCPConnectionCloseEvent } from "@mcp-rt/client";
import type { McpRtError } from "@mcp-rt/config";
import {
  crashAfterInitServer,
  crashOnCallServer,
  fixtureServer,
  hugeOutputServer,
  isProcessAlive,
  slowCallServer,
} from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { inlineServer, textOf, until, useConnections } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const { connect } = useConnections();

describe("callTool against fixtures", () => {
  it("aborts mid-call: the call rejects with AbortError and the server receives notifications/cancelled", async () => {
    const connection = await connect({ name: "slow", config: slowCallServer() });
    const controller = new AbortController();
    const call = callTool(connection, {
      name: "slow",
      args: { ms: 5000, steps: 50 },
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.progress >= 2) controller.abort();
      },
    });
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    await until(() => connection.stderrTail().includes("slow cancelled after"));
    expect(connection.stderrTail()).toMatch(/slow cancelled after \d+ of 50 steps/);
    expect(textOf(await callTool(connection, { name: "echo", args: { message: "after" } }))).toContain(
      "after",
    );
  });

  it("uses config.toolTimeout and names it (and the file) in the error", async () => {
    const connection = await connect({
      name: "slow",
      config: { ...slowCallServer(), toolTimeout: 200 },
      sourcePath: "/home/me/.cursor/mcp.json",
    });
    const error = (await callTool(connection, { name: "slow", args: { ms: 3000, steps: 1 } }).catch(
      (e: unknown) => e,
    )) as McpRtError;
    expect(error.code).toBe("REQUEST_TIMEOUT");
    expect(error.message).toBe(
      'The call of tool "slow" to MCP server "slow" timed out after 200 ms (raise "toolTimeout" in /home/me/.cursor/mcp.json)',
    );
    // The server was told to stop.
    await until(() => connection.stderrTail().includes("slow cancelled"));
  });

  it("takes a limit longer than a timer can hold (or Infinity) as no limit, not as an instant timeout", async () => {
    for (const limit of [3_000_000_000, Number.POSITIVE_INFINITY]) {
      const connection = await connect({
        name: "patient",
        config: {
          ...slowCallServer(),
          timeout: limit,
          toolTimeout: limit,
        },
      });
      expect((await listTools(connection)).map((tool) => tool.name)).toContain("slow");
      expect(textOf(await callTool(connection, { name: "slow", args: { ms: 200, steps: 1 } }))).toContain(
        "slow done",
      );
      expect(
        textOf(await callTool(connection, { name: "slow", args: { ms: 200, steps: 1 }, timeout: limit })),
      ).toContain("slow done");
    }
  });

  it("refuses a call timeout that is not a positive number of ms", async () => {
    const connection = await connect({ name: "echo", config: fixtureServer() });
    await expect(callTool(connection, { name: "echo", args: { message: "x" }, timeout: 0 })).rejects.toThrow(
      new TypeError('"timeout" must be a positive number of milliseconds, got 0'),
    );
    await expect(listTools(connection, { timeout: Number.NaN })).rejects.toThrow(TypeError);
  });

  it("fails a call whose server crashes with TRANSPORT_CLOSED, exit code and stderr", async () => {
    const connection = await connect({ name: "crashy", config: crashOnCallServer() });
    const closes: MCPConnectionCloseEvent[] = [];
    connection.onClose((event) => closes.push(event));

    const error = (await callTool(connection, { name: "crash", args: {} }).catch(
      (e: unknown) => e,
    )) as McpRtError;

    expect(error.code).toBe("TRANSPORT_CLOSED");
    expect(error.server).toBe("crashy");
    expect(error.message).toMatch(
      /^MCP server "crashy" closed the connection during the call of tool "crash": process exited with code 1\. stderr: .*crashing during tools\/call/,
    );
    expect(error.stderrTail).toContain("crashing during tools/call (--crash-on-call)");
    expect(connection.closed).toBe(true);
    expect(closes).toHaveLength(1);
    expect(closes[0]).toMatchObject({
      expected: false,
      reason: 'MCP server "crashy" stopped: process exited with code 1',
      exit: { code: 1, signal: null },
      error: { code: "TRANSPORT_CLOSED", server: "crashy" },
    });
    await expect(callTool(connection, { name: "echo", args: { message: "x" } })).rejects.toMatchObject({
      code: "TRANSPORT_CLOSED",
      message: expect.stringContaining("process exited with code 1"),
    });
  });

  it("ends a server that closed its stdin and fails the call that could not reach it", async () => {
    // Answers, then closes its end of stdin and stays alive: nothing the client writes can reach it.
    const deaf = inlineServer([
      'import { closeSync } from "node:fs";',
      'import { Server } from "@modelcontextprotocol/server";',
      'import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";',
      'const server = new Server({ name: "deaf", version: "1.0.0" }, { capabilities: { tools: {} } });',
      "server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'deafen', inputSchema: { type: 'object' } }] }));",
      "server.setRequestHandler('tools/call', () => {",
      "  setImmediate(() => { process.stdin.pause(); closeSync(0); });",
      "  return { content: [{ type: 'text', text: 'not listening any more' }] };",
      "});",
      "setInterval(() => {}, 1000);",
      "await server.connect(new StdioServerTransport());",
    ]);
    const connection = await connect({ name: "deaf", config: deaf });
    const pid = connection.pid as number;
    const errors: McpRtError[] = [];
    connection.onError((error) => errors.push(error));
    expect(textOf(await callTool(connection, { name: "deafen", args: {} }))).toBe("not listening any more");
    await sleep(100);

    const error = (await callTool(connection, { name: "deafen", args: {} }).catch(
      (e: unknown) => e,
    )) as McpRtError;

    expect(error.code).toBe("TRANSPORT_CLOSED");
    expect(error.message).toBe(
      'MCP server "deaf" closed the connection during the call of tool "deafen": it stopped reading its stdin (EPIPE), so mcp-rt ended it',
    );
    expect(errors[0]).toMatchObject({ code: "TRANSPORT_CLOSED", message: expect.stringContaining("EPIPE") });
    expect(connection.closed).toBe(true);
    await until(() => !isProcessAlive(pid));
  });

  it("tells a late onClose subscriber that a server crashed right after initializing", async () => {
    const connection = await connect({ name: "fragile", config: crashAfterInitServer() });
    await until(() => connection.closed);
    const event = await new Promise<MCPConnectionCloseEvent>((resolve) => connection.onClose(resolve));
    expect(event).toMatchObject({ expected: false, exit: { code: 1 } });
    expect(event.error?.stderrTail).toBeTruthy();
  });

  it("receives a large result intact", async () => {
    const connection = await connect({ name: "huge", config: hugeOutputServer() });
    const result = await callTool(connection, { name: "huge", args: { bytes: 3_000_000 } });
    expect(textOf(result)).toHaveLength(3_000_000);
  });

  it("keeps working and reports stdout noise through onError", async () => {
    const connection = await connect({ name: "chatty", config: fixtureServer({ stdoutNoise: true }) });
    const errors: McpRtError[] = [];
    connection.onError((error) => errors.push(error));
    expect(textOf(await callTool(connection, { name: "echo", args: { message: "hi" } }))).toContain("hi");
    await until(() => errors.length > 0);
    expect(errors[0]).toMatchObject({ code: "PROTOCOL_ERROR", server: "chatty" });
    expect(errors[0]?.message).toContain("not JSON-RPC on stdout");
  });

  it("stops calling onClose/onError listeners after unsubscribing", async () => {
    const connection = await connect({ name: "crashy", config: crashOnCallServer() });
    let calls = 0;
    const unsubscribe = connection.onClose(() => calls++);
    unsubscribe();
    await callTool(connection, { name: "crash", args: {} }).catch(() => {});
    await until(() => connection.closed);
    await sleep(20);
    expect(calls).toBe(0);
  });
});
