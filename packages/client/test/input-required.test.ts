import {
  type ConnectOptions,
  callTool,
  getPrompt,
  MAX_INPUT_ROUNDS,
  type MCPElicitationRequest,
  type MCPElicitationResult,
  type MCPServerConnection,
  readResource,
} from "@mcp-rt/client";
import type { MCPServerConfig } from "@mcp-rt/config";
import { dualEraServer, type HttpFixture, modernServer, startHttpFixture } from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { inlineServer, textOf, useConnections } from "./helpers.js";
import { checkNoPortsLeftAfterFile } from "./http-test-servers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();
checkNoPortsLeftAfterFile();

const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});
// Registered after the fixtures' hook, so connections close first.
const { connect } = useConnections();

/** A handler that records what it is asked and answers with `answer`. */
function answering(answer: (request: MCPElicitationRequest, round: number) => MCPElicitationResult) {
  const asked: MCPElicitationRequest[] = [];
  const onElicitation: ConnectOptions["onElicitation"] = (request) => {
    asked.push(request);
    return answer(request, asked.length);
  };
  return { asked, onElicitation };
}

/** Accepts every form with the name `N<round>`, every URL as is. */
const acceptAll = (request: MCPElicitationRequest, round: number): MCPElicitationResult =>
  request.mode === "url" ? { action: "accept" } : { action: "accept", content: { name: `N${round}` } };

/** The modern content fixture over stdio, or over HTTP (started here, stopped after the test). */
async function modernFixture(transport: "stdio" | "http"): Promise<MCPServerConfig> {
  if (transport === "stdio") return modernServer({ content: true });
  const fixture = await startHttpFixture({ era: "modern", content: true });
  fixtures.push(fixture);
  return { type: "http", url: fixture.url };
}

describe.each(["stdio", "http"] as const)("input_required over %s (a 2026-07-28 fixture)", (transport) => {
  async function connectModern(
    onElicitation?: ConnectOptions["onElicitation"],
  ): Promise<MCPServerConnection> {
    const config = await modernFixture(transport);
    const connection = await connect({ name: "asks", config, ...(onElicitation ? { onElicitation } : {}) });
    expect(connection.era).toBe("modern");
    return connection;
  }

  it("answers a form through onElicitation over several rounds, the requestState carrying earlier answers", async () => {
    const handler = answering(acceptAll);
    const connection = await connectModern(handler.onElicitation);
    const result = await callTool(connection, { name: "ask", args: { rounds: 3 } });
    // The fixture remembers N1 and N2 only in the sealed requestState: each retry echoed it as sent.
    expect(textOf(result)).toBe(
      'answer: accept {"name":"N3","color":"green","ok":true} (earlier rounds: N1, N2)',
    );
    expect(handler.asked.map((request) => [request.server, request.mode, request.message])).toEqual([
      ["asks", "form", "Who are you? (round 1 of 3)"],
      ["asks", "form", "Who are you? (round 2 of 3)"],
      ["asks", "form", "Who are you? (round 3 of 3)"],
    ]);
    expect(handler.asked[0]?.requestedSchema?.required).toEqual(["name"]);
    // Every round names the call it belongs to.
    expect(handler.asked.map((request) => request.call)).toEqual(
      Array(3).fill({ method: "tools/call", name: "ask" }),
    );
  });

  it("answers a URL elicitation through onElicitation", async () => {
    const handler = answering(acceptAll);
    const connection = await connectModern(handler.onElicitation);
    expect(textOf(await callTool(connection, { name: "ask_url", args: {} }))).toBe("answer: accept");
    expect(handler.asked).toEqual([
      {
        server: "asks",
        call: { method: "tools/call", name: "ask_url" },
        mode: "url",
        message: "Sign in to the fixture",
        url: "https://example.com/fixture-sign-in",
      },
    ]);
  });

  it("hands a decline and a cancel to the server, which ends the call with them", async () => {
    const declining = await connectModern(() => ({ action: "decline" }));
    expect(textOf(await callTool(declining, { name: "ask", args: { rounds: 3 } }))).toBe("answer: decline");
    const cancelling = await connectModern(() => ({ action: "cancel" }));
    expect(textOf(await callTool(cancelling, { name: "ask_url", args: {} }))).toBe("answer: cancel");
  });

  it(`gives up after ${MAX_INPUT_ROUNDS} rounds with LIMIT_EXCEEDED naming the server and the call`, async () => {
    const handler = answering(acceptAll);
    const connection = await connectModern(handler.onElicitation);
    const error = await callTool(connection, { name: "ask", args: { rounds: 50 } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      code: "LIMIT_EXCEEDED",
      server: "asks",
      message: `MCP server "asks" still asked for input (input_required) after ${MAX_INPUT_ROUNDS} rounds of the call of tool "ask"; mcp-rt answers at most ${MAX_INPUT_ROUNDS}`,
    });
    expect(handler.asked).toHaveLength(MAX_INPUT_ROUNDS);
  });

  it("aborts a call whose user is still answering: the handler's signal fires, the call rejects at once", async () => {
    let handlerSignal: AbortSignal | undefined;
    const connection = await connectModern((_request, signal) => {
      handlerSignal = signal;
      return new Promise<never>(() => {}); // a user who never answers, and a handler that ignores the signal
    });
    const controller = new AbortController();
    const call = callTool(connection, { name: "ask", args: {}, signal: controller.signal });
    await expect.poll(() => handlerSignal).toBeDefined();
    const started = Date.now();
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(handlerSignal?.aborted).toBe(true);
    // The connection goes on serving.
    expect(textOf(await callTool(connection, { name: "echo", args: { message: "still here" } }))).toBe(
      "still here",
    );
  });

  it("without onElicitation, fails with the server's -32021 and names the option", async () => {
    const connection = await connectModern();
    await expect(callTool(connection, { name: "ask", args: {} })).rejects.toMatchObject({
      code: "PROTOCOL_ERROR",
      message: expect.stringMatching(/error -32021: .*only with an onElicitation handler/),
    });
  });
});

describe("input_required across rounds: answers, aborts and time limits", () => {
  async function connectStdio(onElicitation: ConnectOptions["onElicitation"]): Promise<MCPServerConnection> {
    return connect({ name: "asks", config: modernServer({ content: true }), onElicitation });
  }

  it("applies the form's defaults and never sends an answer that does not fit it", async () => {
    const defaults = await connectStdio(() => ({ action: "accept", content: { name: "Ada", count: 2 } }));
    expect(textOf(await callTool(defaults, { name: "ask", args: {} }))).toBe(
      'answer: accept {"name":"Ada","count":2,"color":"green","ok":true}',
    );
    const wrong = await connectStdio(() => ({ action: "accept", content: { count: 9 } }));
    await expect(callTool(wrong, { name: "ask", args: {} })).rejects.toMatchObject({
      code: "PROTOCOL_ERROR",
      message:
        'MCP server "asks" asked for input during the call of tool "ask" that the client could not give: the user\'s answer does not fit the requested form: name: is required',
    });
  });

  it("counts the rounds and the user's answers against the call's timeout", async () => {
    let rounds = 0;
    const connection = await connectStdio(async (request) => {
      rounds++;
      // Each answer takes 400 ms, within the 1000 ms limit; five of them are not.
      await new Promise((resolve) => setTimeout(resolve, 400));
      return { action: "accept", content: { name: request.message } };
    });
    const started = Date.now();
    await expect(
      callTool(connection, { name: "ask", args: { rounds: 5 }, timeout: 1000 }),
    ).rejects.toMatchObject({
      code: "REQUEST_TIMEOUT",
      message: expect.stringMatching(/call of tool "ask" to MCP server "asks" timed out after 1000 ms/),
    });
    expect(rounds).toBeLessThan(5);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

/** A 2026-07-28 stdio server whose prompt, resource and tool `where` (roots) ask through input_required. */
const askingServer = inlineServer([
  'import { McpServer, inputRequired, acceptedContent } from "@modelcontextprotocol/server";',
  'import { serveStdio } from "@modelcontextprotocol/server/stdio";',
  'import * as z from "zod/v4";',
  "const form = { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] };",
  "let reads = 0;",
  "serveStdio(() => {",
  "  const mcp = new McpServer({ name: 'asking', version: '1.0.0' });",
  "  mcp.registerPrompt('brief', { argsSchema: z.object({}) }, (_args, ctx) => {",
  "    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'topic');",
  "    if (!answer) return inputRequired({ inputRequests: { topic: inputRequired.elicit({ message: 'Topic?', requestedSchema: form }) }, requestState: 'prompt ✓ \"state\"' });",
  "    if (ctx.mcpReq.requestState() !== 'prompt ✓ \"state\"') throw new Error('requestState changed');",
  "    return { messages: [{ role: 'user', content: { type: 'text', text: 'Write about ' + answer.topic } }] };",
  "  });",
  "  mcp.registerTool('where', {}, (ctx) => {",
  "    const roots = ctx.mcpReq.inputResponses?.roots?.roots;",
  "    if (!roots) return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });",
  "    return { content: [{ type: 'text', text: roots.map((root) => root.uri).join(' ') }] };",
  "  });",
  "  mcp.registerResource('secret', 'asking://secret', {}, (uri, ctx) => {",
  "    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'topic');",
  "    if (!answer) return inputRequired({ inputRequests: { topic: inputRequired.elicit({ message: 'Which secret?', requestedSchema: form }) } });",
  "    reads++;",
  "    return { contents: [{ uri: uri.href, text: 'secret about ' + answer.topic + ' (read ' + reads + ')' }] };",
  "  });",
  "  return mcp;",
  "}, { legacy: 'reject' });",
]);

describe("input_required on prompts/get, resources/read, and for roots", () => {
  it("answers both through onElicitation, echoing a requestState as sent, and caches neither result", async () => {
    const handler = answering((_request, round) => ({ action: "accept", content: { topic: `t${round}` } }));
    const connection = await connect({
      name: "asking",
      config: askingServer,
      onElicitation: handler.onElicitation,
    });
    expect(connection.era).toBe("modern");
    const prompt = await getPrompt(connection, { name: "brief" });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Write about t1" });
    const first = await readResource(connection, { uri: "asking://secret" });
    const second = await readResource(connection, { uri: "asking://secret" });
    // mcp-rt caches lists only: a read that needed input asks again and reaches the server again.
    expect(first.contents[0]).toMatchObject({ text: "secret about t2 (read 1)" });
    expect(second.contents[0]).toMatchObject({ text: "secret about t3 (read 2)" });
    expect(handler.asked.map((request) => [request.message, request.call])).toEqual([
      ["Topic?", { method: "prompts/get", name: "brief" }],
      ["Which secret?", { method: "resources/read", name: "asking://secret" }],
      ["Which secret?", { method: "resources/read", name: "asking://secret" }],
    ]);
  });

  it("answers an embedded roots/list with the agent's cwd, as the legacy roots/list", async () => {
    const connection = await connect({ name: "asking", config: askingServer, cwd: "/tmp" });
    expect(textOf(await callTool(connection, { name: "where", args: {} }))).toBe("file:///tmp");
  });

  it("times a read out across its rounds (config timeout)", async () => {
    const connection = await connect({
      name: "asking",
      config: askingServer,
      onElicitation: () => new Promise<never>(() => {}),
    });
    await expect(readResource(connection, { uri: "asking://secret", timeout: 300 })).rejects.toMatchObject({
      code: "REQUEST_TIMEOUT",
    });
  });
});

describe("a dual-era fixture connected legacy", () => {
  it("still asks through elicitation/create, one round, as before", async () => {
    const handler = answering(acceptAll);
    const connection = await connect({
      name: "asks",
      config: { ...dualEraServer({ content: true }), protocol: "legacy" },
      onElicitation: handler.onElicitation,
    });
    expect(connection.era).toBe("legacy");
    // `rounds` is the modern tool's: the legacy one asks once with elicitInput.
    expect(textOf(await callTool(connection, { name: "ask", args: { rounds: 3 } }))).toBe(
      'answer: accept {"name":"N1","color":"green","ok":true}',
    );
    expect(textOf(await callTool(connection, { name: "ask_url", args: {} }))).toBe("answer: accept");
    // elicitationId exists only on the 2025 wire's URL elicitation/create request.
    // The 2025 wire's elicitation/create names no call.
    expect(handler.asked.every((request) => request.call === undefined)).toBe(true);
    expect(handler.asked.map((request) => [request.message, request.elicitationId])).toEqual([
      ["Who are you?", undefined],
      ["Sign in to the fixture", "fixture-1"],
    ]);
  });
});

/**
 * A bare 2026-07-28 stdio server (no SDK) whose tools/call result has no resultType, and whose
 * tools `sample` and `confirm` ask for sampling and a form whatever the client declared.
 */
const bareModernServer = inlineServer([
  'import { createInterface } from "node:readline";',
  "const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');",
  "createInterface({ input: process.stdin }).on('line', (line) => {",
  "  const { id, method, params } = JSON.parse(line);",
  "  if (id === undefined) return;",
  "  const ask = { sample: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } }, confirm: { method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } } } }[params?.name];",
  "  if (method === 'tools/call' && ask) return send({ jsonrpc: '2.0', id, result: { resultType: 'input_required', inputRequests: { q: ask } } });",
  "  if (method === 'server/discover') send({ jsonrpc: '2.0', id, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'private', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'bare', version: '1.0.0' } } });",
  "  else if (method === 'tools/call') send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'done' }] } });",
  "  else send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });",
  "});",
]);

describe("a 2026-07-28 result without resultType", () => {
  it("is complete: the call resolves with it", async () => {
    const connection = await connect({ name: "bare", config: bareModernServer });
    expect(connection.era).toBe("modern");
    expect(textOf(await callTool(connection, { name: "anything", args: {} }))).toBe("done");
  });
});

describe("input the client has no handler for (a server that asks whatever the client declared)", () => {
  it("fails the call with PROTOCOL_ERROR saying what was asked, and for a form which option answers it", async () => {
    const connection = await connect({ name: "bare", config: bareModernServer });
    await expect(callTool(connection, { name: "sample", args: {} })).rejects.toMatchObject({
      code: "PROTOCOL_ERROR",
      message:
        'MCP server "bare" asked for sampling/createMessage during the call of tool "sample" (input_required), which mcp-rt does not answer',
    });
    await expect(callTool(connection, { name: "confirm", args: {} })).rejects.toMatchObject({
      code: "PROTOCOL_ERROR",
      message:
        'MCP server "bare" asked for elicitation/create during the call of tool "confirm" (input_required); pass onElicitation to connectToServer (or to the manager) to answer it',
    });
  });
});
