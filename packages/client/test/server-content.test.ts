import {
  callTool,
  checkStructuredContent,
  getPrompt,
  listPrompts,
  listResources,
  listResourceTemplates,
  type MCPElicitationRequest,
  type MCPElicitationResult,
  readResource,
  subscribeResource,
  unsubscribeResource,
} from "@mcp-rt/client";
import type { McpRtError } from "@mcp-rt/config";
import { contentServer, echoServer, fixtureServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { everythingServer, inlineServer, textOf, until, useConnections } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const { connect } = useConnections();

describe("resources and prompts of server-everything", () => {
  it("lists resources, templates and prompts (with arguments), and reads text and binary resources", async () => {
    const connection = await connect({ name: "everything", config: everythingServer });
    const resources = await listResources(connection);
    expect(resources.length).toBeGreaterThan(0);
    expect(resources[0]).toMatchObject({
      uri: expect.stringMatching(/^demo:\/\//),
      name: expect.any(String),
    });
    const templates = await listResourceTemplates(connection);
    expect(templates.map((template) => template.uriTemplate)).toContain(
      "demo://resource/dynamic/text/{resourceId}",
    );
    const prompts = await listPrompts(connection);
    expect(prompts.find((prompt) => prompt.name === "args-prompt")?.arguments).toEqual([
      { name: "city", description: "Name of the city", required: true },
      { name: "state", required: false },
    ]);

    const text = await readResource(connection, { uri: "demo://resource/dynamic/text/7" });
    expect(text.contents[0]).toMatchObject({
      uri: "demo://resource/dynamic/text/7",
      text: expect.any(String),
    });
    const blob = await readResource(connection, { uri: "demo://resource/dynamic/blob/7" });
    expect(blob.contents[0]).toMatchObject({ blob: expect.any(String) });

    const prompt = await getPrompt(connection, {
      name: "args-prompt",
      args: { city: "Lisbon", state: "LX" },
    });
    expect(JSON.stringify(prompt.messages)).toContain("Lisbon");
    const missing = (await getPrompt(connection, { name: "args-prompt", args: {} }).catch(
      (e: unknown) => e,
    )) as McpRtError;
    expect(missing).toMatchObject({ code: "PROTOCOL_ERROR", server: "everything" });
  });

  it("subscribes to a resource and hears notifications/resources/updated until unsubscribed", async () => {
    const connection = await connect({ name: "everything", config: everythingServer });
    const updates: string[] = [];
    connection.onResourceUpdated((uri) => updates.push(uri));
    const uri = "demo://resource/dynamic/text/1";
    await subscribeResource(connection, { uri });
    await callTool(connection, { name: "toggle-subscriber-updates", args: {} });
    await until(() => updates.includes(uri));
    await unsubscribeResource(connection, { uri });
  });

  it("passes structuredContent through, and says whether it fits the outputSchema", async () => {
    const connection = await connect({ name: "everything", config: everythingServer });
    const result = await callTool(connection, {
      name: "get-structured-content",
      args: { location: "New York" },
    });
    const schema = {
      type: "object",
      properties: { temperature: { type: "number" } },
      required: ["temperature"],
    };
    expect(checkStructuredContent(schema, result)).toBeUndefined();
    expect(checkStructuredContent({ type: "object", required: ["nope"] }, result)).toMatch(
      /structuredContent does not match the tool's output schema: .*nope/,
    );
    expect(checkStructuredContent(schema, { isError: false })).toBe(
      "the tool has an output schema but returned no structuredContent",
    );
  });
});

describe("elicitation", () => {
  const answering = (answer: (request: MCPElicitationRequest) => MCPElicitationResult) => {
    const seen: MCPElicitationRequest[] = [];
    return {
      seen,
      onElicitation: (request: MCPElicitationRequest) => {
        seen.push(request);
        return answer(request);
      },
    };
  };

  it("is declared only with a handler: server-everything offers its elicitation tool then", async () => {
    const without = await connect({ name: "plain", config: everythingServer });
    expect(textOf(await callTool(without, { name: "trigger-elicitation-request", args: {} }))).toMatch(
      /not found/i,
    );
    const handler = answering(() => ({ action: "decline" }));
    const withHandler = await connect({
      name: "asks",
      config: everythingServer,
      onElicitation: handler.onElicitation,
    });
    const declined = await callTool(withHandler, { name: "trigger-elicitation-request", args: {} });
    expect(textOf(declined)).toMatch(/declined/i);
    expect(handler.seen[0]).toMatchObject({ server: "asks", mode: "form", message: expect.any(String) });
    expect(handler.seen[0]?.requestedSchema?.properties.name).toMatchObject({ type: "string" });
  });

  it("sends accepted content with the schema's defaults filled in, and passes a cancel through", async () => {
    const handler = answering(() => ({
      action: "accept",
      content: { name: "Ada", check: true, email: "ada@example.com", untitledMultipleSelectEnum: ["Piano"] },
    }));
    const connection = await connect({
      name: "asks",
      config: everythingServer,
      onElicitation: handler.onElicitation,
    });
    const accepted = textOf(await callTool(connection, { name: "trigger-elicitation-request", args: {} }));
    expect(accepted).toContain("Ada");
    // `firstLine` was left out: its default went to the server.
    expect(accepted).toContain("It was a dark and stormy night.");

    const cancelling = await connect({
      name: "cancels",
      config: everythingServer,
      onElicitation: () => ({ action: "cancel" }),
    });
    expect(textOf(await callTool(cancelling, { name: "trigger-elicitation-request", args: {} }))).toMatch(
      /cancel/i,
    );
  });

  it("never sends content that does not fit the requested schema", async () => {
    const connection = await connect({
      name: "asks",
      config: everythingServer,
      onElicitation: () => ({ action: "accept", content: { name: "Ada", integer: 1000 } }),
    });
    const result = await callTool(connection, { name: "trigger-elicitation-request", args: {} });
    expect(textOf(result)).toMatch(/does not fit the requested form/);
    expect(textOf(result)).not.toContain("Ada");
  });
});

describe("servers without resources or prompts", () => {
  it("have none: no capability, or -32601 for the methods", async () => {
    for (const [name, config] of [
      ["plain", echoServer()],
      ["not-found", fixtureServer({ contentNotFound: true })],
    ] as const) {
      const connection = await connect({ name, config });
      expect(await listResources(connection)).toEqual([]);
      expect(await listResourceTemplates(connection)).toEqual([]);
      expect(await listPrompts(connection)).toEqual([]);
    }
  });

  it("read the fixture's notes, blob and template, and a missing resource is a PROTOCOL_ERROR", async () => {
    const connection = await connect({ name: "content", config: contentServer() });
    expect((await listResources(connection)).map((resource) => resource.uri)).toEqual([
      "fixture://notes/first",
      "fixture://blob",
    ]);
    const read = await readResource(connection, { uri: "fixture://notes/other" });
    expect(read.contents[0]).toMatchObject({ text: "A note called other." });
    const error = (await readResource(connection, { uri: "nope://x" }).catch(
      (e: unknown) => e,
    )) as McpRtError;
    expect(error).toMatchObject({ code: "PROTOCOL_ERROR", server: "content" });
  });

  it.each([
    // v1 servers answered -32002 (SEP-2164 made it -32602): v2 reads one with `data.uri` as its
    // ResourceNotFoundError (-32602); a bare -32002 is kept, and mcp-rt takes both as not found.
    ["2025-11-25", -32602, "v1 with data.uri"],
    ["2025-11-25", -32002, "v1, bare -32002"],
    ["2026-07-28", -32602, "fixture"],
  ] as const)(
    "a resource the server does not know is told as such at %s (error %i; %s)",
    async (version, rpcCode, kind) => {
      const config =
        kind === "fixture"
          ? contentServer({ era: "modern" })
          : // A server as v1 of the SDK built them (v2 sends -32602 in both eras): JSON-RPC by hand.
            inlineServer([
              'import { createInterface } from "node:readline";',
              "const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');",
              'createInterface({ input: process.stdin }).on("line", (line) => {',
              "  const { id, method, params } = JSON.parse(line);",
              "  if (id === undefined) return;",
              '  if (method === "initialize") send({ jsonrpc: "2.0", id, result: { protocolVersion: "2025-11-25", capabilities: { resources: {} }, serverInfo: { name: "content", version: "1.0.0" } } });',
              '  else if (method === "resources/read") send({ jsonrpc: "2.0", id, error: { code: -32002, message: "Resource not found"' +
                (kind === "v1 with data.uri" ? ", data: { uri: params.uri }" : "") +
                " } });",
              '  else send({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });',
              "});",
            ]);
      const connection = await connect({
        name: "content",
        config: kind === "fixture" ? config : { ...config, protocol: "legacy" },
      });
      expect(connection.protocolVersion).toBe(version);
      const error = (await readResource(connection, { uri: "nope://x" }).catch(
        (e: unknown) => e,
      )) as McpRtError;
      expect(error).toMatchObject({ code: "PROTOCOL_ERROR", details: { rpcCode, resourceNotFound: true } });
      expect(error.message).toMatch(
        /^MCP server "content" has no resource "nope:\/\/x" \(error -32[06]02: .*\); list its resources again$/,
      );
    },
  );

  it("bounds a huge resource by maxMessageBytes", async () => {
    const connection = await connect({
      name: "huge",
      config: fixtureServer({ hugeResource: 2_000_000 }),
      maxMessageBytes: 1_000_000,
    });
    expect(await listResources(connection)).toMatchObject([{ uri: "fixture://huge", size: 2_000_000 }]);
    const error = (await readResource(connection, { uri: "fixture://huge" }).catch(
      (e: unknown) => e,
    )) as McpRtError;
    expect(error.code).toBe("LIMIT_EXCEEDED");
  });
});
