import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { MCPToolCache } from "@mcp-rt/cache";
import type { McpRtError } from "@mcp-rt/config";
import { contentServer, echoServer, fixtureServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import type { MCPElicitationRequest } from "../src/index.js";
import { capInstructions, MAX_INSTRUCTIONS_LENGTH } from "../src/server/server-content.js";
import { nextEvent, recordingLogger, textOf, useManagers } from "./helpers.js";

const manager = useManagers();

const everythingEntry = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);
const everything = { command: process.execPath, args: [everythingEntry] };

describe("resources and prompts beside the tools", () => {
  it("lists server-everything's resources, templates and prompts, reads them and gets a prompt", async () => {
    const m = manager();
    const seen: string[] = [];
    m.on("resources:changed", ({ name }) => seen.push(`resources ${name}`));
    m.on("prompts:changed", ({ name }) => seen.push(`prompts ${name}`));
    const { errors } = await m.connectServers({ everything }, {});
    expect(errors.size).toBe(0);
    await expect.poll(() => seen).toEqual(["resources everything", "prompts everything"]);

    const resources = m.getResources();
    expect(resources.length).toBeGreaterThan(0);
    expect(resources[0]).toMatchObject({ server: "everything", uri: expect.stringMatching(/^demo:/) });
    expect(m.getResourceTemplates().map((template) => template.uriTemplate)).toContain(
      "demo://resource/dynamic/blob/{resourceId}",
    );
    const argsPrompt = m.getPrompts().find((prompt) => prompt.name === "args-prompt");
    expect(argsPrompt).toMatchObject({
      server: "everything",
      arguments: [{ name: "city", required: true }, { name: "state" }],
    });

    const first = resources[0];
    const read = await m.readResource({ server: "everything", uri: first?.uri ?? "" });
    expect(read.contents[0]).toMatchObject({ uri: first?.uri });
    const blob = await m.readResource({ server: "everything", uri: "demo://resource/dynamic/blob/3" });
    expect(blob.contents[0]).toMatchObject({ blob: expect.any(String) });
    const prompt = await m.getPrompt({
      server: "everything",
      name: "args-prompt",
      arguments: { city: "Porto" },
    });
    expect(JSON.stringify(prompt.messages)).toContain("Porto");

    const state = m.getServerStates()[0];
    expect(state).toMatchObject({ resourceCount: expect.any(Number), promptCount: 4 });
    expect(state?.instructions?.length).toBeGreaterThan(100);
  });

  it("emits resource:updated for a subscribed resource", async () => {
    const m = manager();
    await m.connectServers({ everything }, {});
    const uri = "demo://resource/dynamic/text/2";
    await m.subscribeResource("everything", uri);
    const updated = nextEvent(m, "resource:updated", "everything");
    const [tool] = m
      .getTools()
      .filter((candidate) => candidate.definition.name === "toggle-subscriber-updates");
    await tool?.execute("1", {});
    expect(await updated).toEqual({ name: "everything", uri });
    await m.unsubscribeResource("everything", uri);
  });

  it("follows notifications/resources|prompts/list_changed", async () => {
    const m = manager({ minRelistIntervalMs: 0 });
    await m.connectServers({ content: contentServer() }, {});
    expect(m.getResources().map((resource) => resource.uri)).toEqual([
      "fixture://notes/first",
      "fixture://blob",
    ]);
    const tools = Object.fromEntries(m.getTools().map((tool) => [tool.definition.name, tool]));

    const resourcesChanged = nextEvent(m, "resources:changed", "content");
    await tools.add_resource?.execute("1", { name: "second" });
    await resourcesChanged;
    expect(m.getResources().map((resource) => resource.uri)).toContain("fixture://notes/second");

    const promptsChanged = nextEvent(m, "prompts:changed", "content");
    await tools.add_prompt?.execute("2", { name: "wave" });
    await promptsChanged;
    expect(m.getPrompts().map((prompt) => prompt.name)).toEqual(["greet", "wave"]);
    const wave = await m.getPrompt({ server: "content", name: "wave", arguments: { who: "Ada" } });
    expect(wave.messages[0]?.content).toEqual({ type: "text", text: "wave: say hello to Ada" });
  });

  it("the tools do not wait long for slow resource and prompt lists: those follow when they land", async () => {
    const m = manager();
    const started = performance.now();
    const { connectedServers } = await m.connectServers({ slow: contentServer({ slowContentMs: 4000 }) }, {});
    expect(connectedServers).toEqual(["slow"]);
    expect(performance.now() - started).toBeLessThan(3500);
    expect(m.getTools().length).toBeGreaterThan(0);
    expect(m.getResources()).toEqual([]);
    await nextEvent(m, "resources:changed", "slow");
    expect(m.getResources().map((resource) => resource.uri)).toEqual([
      "fixture://notes/first",
      "fixture://blob",
    ]);
  });

  it("a server without the capabilities, or answering -32601, has none: no error, no log", async () => {
    const logger = recordingLogger();
    const m = manager({ logger });
    const seen: string[] = [];
    m.on("resources:changed", ({ name }) => seen.push(name));
    m.on("prompts:changed", ({ name }) => seen.push(name));
    const { errors } = await m.connectServers(
      { plain: echoServer(), missing: fixtureServer({ contentNotFound: true }) },
      {},
    );
    expect(errors.size).toBe(0);
    expect(m.getResources()).toEqual([]);
    expect(m.getResourceTemplates()).toEqual([]);
    expect(m.getPrompts()).toEqual([]);
    expect(seen).toEqual([]);
    expect(logger.lines).toEqual([]);
  });

  it("bounds what a server lists and reads: maxTools entries, maxMessageBytes per read", async () => {
    const logger = recordingLogger();
    const m = manager({ logger, toolLimits: { maxTools: 1 }, maxMessageBytes: 500_000 });
    await m.connectServers(
      { content: contentServer(), huge: fixtureServer({ hugeResource: 1_000_000 }) },
      {},
    );
    await expect
      .poll(() => m.getResources().filter((resource) => resource.server === "content"))
      .toHaveLength(1);
    expect(logger.lines.map((line) => line.message)).toContainEqual(
      expect.stringMatching(/"content" lists more than 1 resources; kept the first 1/),
    );
    const error = (await m
      .readResource({ server: "huge", uri: "fixture://huge" })
      .catch((e: unknown) => e)) as McpRtError;
    expect(error.code).toBe("LIMIT_EXCEEDED");
  });

  it("reads a resource as a tool result: text inline, binary as a note, within resultCharLimit", async () => {
    const m = manager({ resultCharLimit: 1000 });
    await m.connectServers({ content: contentServer(), huge: fixtureServer({ hugeResource: 50_000 }) }, {});
    const note = await m.readResourceResult({ server: "content", uri: "fixture://notes/first" });
    expect(note.content).toEqual([
      { type: "text", text: "[resource fixture://notes/first (text/plain)]\nThe first note." },
    ]);
    const blob = await m.readResourceResult({ server: "content", uri: "fixture://blob" });
    expect(blob.content).toEqual([
      { type: "text", text: "[resource fixture://blob (image/png)] binary, 12 B" },
    ]);
    const huge = await m.readResourceResult({ server: "huge", uri: "fixture://huge" });
    const text = huge.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    expect(text.length).toBeLessThan(1300);
    expect(text).toMatch(/cut|truncated|characters/i);
    const missing = await m.readResourceResult({ server: "content", uri: "other://x" });
    expect(missing).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^MCP error: /) }],
    });
  });

  it("rejects reads of unknown servers and URIs with an McpRtError", async () => {
    const m = manager();
    await m.connectServers({ content: contentServer() }, {});
    await expect(m.readResource({ server: "nope", uri: "fixture://blob" })).rejects.toMatchObject({
      code: "UNKNOWN_SERVER",
    });
    await expect(m.readResource({ server: "content", uri: "other://x" })).rejects.toMatchObject({
      code: "PROTOCOL_ERROR",
    });
    await expect(m.subscribeResource("content", "fixture://blob")).rejects.toMatchObject({
      code: "PROTOCOL_ERROR",
    });
  });

  it("the cache serves a deferred server's resources and prompts; reads wait for it", async () => {
    const cache = new MCPToolCache(new Map());
    const config = contentServer({ initDelayMs: 1500 });
    const first = manager({ cache });
    await first.connectServers({ slow: config }, {});
    await first.disconnectAll();

    const m = manager({ cache, startupTimeoutMs: 100 });
    const seen: string[] = [];
    m.on("resources:changed", ({ name }) => seen.push(`resources ${name}`));
    const { connectedServers } = await m.connectServers({ slow: config }, {});
    expect(connectedServers).toEqual([]);
    expect(m.getServerStates()[0]).toMatchObject({ deferred: true, resourceCount: 3, promptCount: 1 });
    expect(m.getResources().map((resource) => resource.uri)).toEqual([
      "fixture://notes/first",
      "fixture://blob",
    ]);
    expect(m.getPrompts().map((prompt) => prompt.name)).toEqual(["greet"]);
    expect(seen).toEqual(["resources slow"]);
    const read = await m.readResource({ server: "slow", uri: "fixture://notes/first" });
    expect(read.contents[0]).toMatchObject({ text: "The first note." });
    expect(m.getConnectionStatus("slow")).toBe("connected");
  });

  it("passes a server's elicitation to onElicitation, naming the server, and its answer back", async () => {
    const asked: MCPElicitationRequest[] = [];
    const m = manager({
      onElicitation: (request) => {
        asked.push(request);
        return request.mode === "url"
          ? { action: "decline" }
          : { action: "accept", content: { name: "Ada" } };
      },
    });
    await m.connectServers({ content: contentServer() }, {});
    const tools = Object.fromEntries(m.getTools().map((tool) => [tool.definition.name, tool]));
    expect(textOf(await tools.ask!.execute("1", {}))).toBe(
      'answer: accept {"name":"Ada","color":"green","ok":true}',
    );
    expect(textOf(await tools.ask_url!.execute("2", {}))).toBe("answer: decline");
    expect(asked.map((request) => [request.server, request.mode])).toEqual([
      ["content", "form"],
      ["content", "url"],
    ]);
    expect(asked[1]?.url).toBe("https://example.com/fixture-sign-in");
  });

  it("without onElicitation, servers cannot ask: the client does not declare the capability", async () => {
    const m = manager();
    await m.connectServers({ content: contentServer() }, {});
    const ask = m.getTools().find((tool) => tool.definition.name === "ask");
    const result = await ask!.execute("1", {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/does not support form elicitation/);
  });

  it("caps a server's instructions at 2048 characters, with a note", () => {
    expect(capInstructions("Use me.")).toBe("Use me.");
    expect(capInstructions("  ")).toBeUndefined();
    const capped = capInstructions("x".repeat(5000)) ?? "";
    expect(capped.startsWith("x".repeat(MAX_INSTRUCTIONS_LENGTH))).toBe(true);
    expect(capped).toMatch(
      /\[cut by mcp-rt: the server's instructions are 5000 characters; the first 2048 kept\]$/,
    );
  });
});
