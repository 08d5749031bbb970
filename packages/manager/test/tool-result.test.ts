import { describe, expect, it } from "vitest";
import { toolErrorResult, toToolResult } from "../src/tools/tool-result.js";

const ctx = { serverName: "srv", mcpToolName: "tool", provider: "claude-code", providerName: "Claude Code" };

describe("toToolResult", () => {
  it("keeps text as text and images as images, with details", () => {
    const raw = {
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
      ],
    };
    const result = toToolResult(raw, ctx);
    expect(result.content).toEqual([
      { type: "text", text: "hello" },
      { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
    ]);
    expect(result.isError).toBeUndefined();
    expect(result.details).toEqual({ ...ctx, isError: false, rawContent: raw });
  });

  it("marks isError", () => {
    const result = toToolResult({ content: [{ type: "text", text: "bad input" }], isError: true }, ctx);
    expect(result.isError).toBe(true);
    expect(result.details.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "bad input" }]);
  });

  it("describes audio, embedded resources and resource links as short text", () => {
    const raw = {
      content: [
        { type: "audio", data: "A".repeat(4096), mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "file body" } },
        {
          type: "resource",
          resource: { uri: "file:///b.bin", mimeType: "application/octet-stream", blob: "AAAA" },
        },
        {
          type: "resource_link",
          uri: "file:///c.md",
          name: "c.md",
          mimeType: "text/markdown",
          description: "notes",
        },
      ],
    };
    const texts = toToolResult(raw, ctx).content.map((b) => (b.type === "text" ? b.text : b.type));
    expect(texts[0]).toBe("[audio audio/wav, 3.0 KB]");
    expect(texts[1]).toBe("[resource file:///a.txt (text/plain)]\nfile body");
    expect(texts[2]).toBe("[resource file:///b.bin (application/octet-stream)] binary, 3 B");
    expect(texts[3]).toBe('[resource link file:///c.md "c.md" (text/markdown)] notes');
    expect(toToolResult(raw, ctx).details.rawContent).toBe(raw);
  });

  it("adds structuredContent as JSON unless a text block already carries it", () => {
    const structured = { temperature: 21, unit: "C" };
    expect(toToolResult({ content: [], structuredContent: structured }, ctx).content).toEqual([
      { type: "text", text: '{"temperature":21,"unit":"C"}' },
    ]);
    const mirrored = {
      content: [{ type: "text", text: JSON.stringify(structured, null, 2) }],
      structuredContent: structured,
    };
    expect(toToolResult(mirrored, ctx).content).toHaveLength(1);
  });

  it("reads the 2024-10-07 toolResult field", () => {
    expect(toToolResult({ toolResult: { ok: 1 } }, ctx).content).toEqual([
      { type: "text", text: '{"ok":1}' },
    ]);
  });

  it("never crashes on malformed content", () => {
    const result = toToolResult({ content: [null, 42, { type: "image" }, { type: "weird", x: 1 }] }, ctx);
    expect(result.content.map((b) => (b.type === "text" ? b.text : "")).join("|")).toBe(
      'null|42|[image without data or mime type]|[weird content] {"type":"weird","x":1}',
    );
    expect(toToolResult({ content: "nope" }, ctx).content).toEqual([{ type: "text", text: "(no output)" }]);
  });

  it("truncates text beyond resultCharLimit and says how much was cut", () => {
    const result = toToolResult(
      {
        content: [
          { type: "text", text: "a".repeat(60) },
          { type: "image", data: "x", mimeType: "image/png" },
          { type: "text", text: "b".repeat(60) },
          { type: "text", text: "c".repeat(10) },
        ],
      },
      ctx,
      { resultCharLimit: 100 },
    );
    expect(result.content).toEqual([
      { type: "text", text: "a".repeat(60) },
      { type: "image", data: "x", mimeType: "image/png" },
      { type: "text", text: "b".repeat(40) },
      {
        type: "text",
        text: "[output truncated: 30 of 130 characters cut; raise resultCharLimit to see more]",
      },
    ]);
    // What was cut is not lost: a session can keep it (resultSpill).
    expect(result.details.uncutContent).toEqual([
      { type: "text", text: "a".repeat(60) },
      { type: "image", data: "x", mimeType: "image/png" },
      { type: "text", text: "b".repeat(60) },
      { type: "text", text: "c".repeat(10) },
    ]);
    expect(toToolResult({ content: [{ type: "text", text: "short" }] }, ctx).details).not.toHaveProperty(
      "uncutContent",
    );
  });

  it("has a default budget of 100 000 characters", () => {
    const result = toToolResult({ content: [{ type: "text", text: "x".repeat(150_000) }] }, ctx);
    expect(result.content[0]).toEqual({ type: "text", text: "x".repeat(100_000) });
    expect(result.content[1]).toMatchObject({ text: expect.stringContaining("50000 of 150000") });
  });
});

describe("toolErrorResult", () => {
  it("is one MCP error: text block, marked as an error", () => {
    const result = toolErrorResult('server "srv" disconnected', ctx);
    expect(result).toEqual({
      content: [{ type: "text", text: 'MCP error: server "srv" disconnected' }],
      isError: true,
      details: { ...ctx, isError: true, rawContent: undefined },
    });
  });
});
