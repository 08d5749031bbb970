import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { contentServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { textOf, useManagers } from "./helpers.js";

const manager = useManagers();

const everythingEntry = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);

describe("what a server says about its tools", () => {
  it("keeps title and annotations (the server's hints) on MCPTool", async () => {
    const m = manager();
    await m.connectServers({ everything: { command: process.execPath, args: [everythingEntry] } }, {});
    const echo = m.getTools().find((tool) => tool.definition.name === "echo");
    expect(echo?.annotations).toMatchObject({ readOnlyHint: expect.any(Boolean) });
    const titled = m.getTools().find((tool) => tool.title !== undefined);
    expect(titled?.title).toEqual(expect.any(String));
  });

  it("checks structuredContent against the outputSchema: a mismatch is reported, the content delivered", async () => {
    const m = manager();
    await m.connectServers({ content: contentServer() }, {});
    const structured = m.getTools().find((tool) => tool.definition.name === "structured");
    expect(structured?.definition.outputSchema).toMatchObject({ required: ["count"] });

    const good = await structured?.execute("1", { valid: true });
    expect(good?.isError).toBeUndefined();
    expect(good?.details.structuredContentError).toBeUndefined();

    const bad = await structured?.execute("2", { valid: false });
    expect(bad?.isError).toBeUndefined();
    expect(textOf(bad ?? { content: [] })).toBe('{"count":"three"}');
    expect(bad?.details.structuredContentError).toMatch(
      /^structuredContent does not match the tool's output schema: .*count.*number/,
    );
  });
});
