import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { contentServer, echoServer, fixtureServer } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MCPCommandController } from "../src/mcp-command-controller.js";
import { LIST_RESOURCES_NAME, READ_RESOURCE_NAME } from "../src/resource-tools.js";
import { createWorld, type World } from "./helpers.js";

const everythingEntry = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.cleanup();
});

const textOf = (result: { content: Array<{ type: string; text?: string }> }): string =>
  result.content.map((block) => block.text ?? "").join("\n");

describe("a session's resources, prompts and instructions", () => {
  it("gives the model mcp_list_resources and mcp_read_resource while a server has resources", async () => {
    await world.write(world.userFile, { mcpServers: { notes: contentServer(), plain: echoServer() } });
    const { session } = await world.start();
    const find = (name: string) => session.activeTools().find((tool) => tool.name === name);
    // Resource lists may land just after the tools: the resource tools follow them.
    await expect.poll(() => find(READ_RESOURCE_NAME)).toBeDefined();
    const list = find(LIST_RESOURCES_NAME);
    const read = find(READ_RESOURCE_NAME);
    expect(list).toBeDefined();
    expect(read).toBeDefined();
    expect(
      session
        .modelTools()
        .visible()
        .map((tool) => tool.name),
    ).toContain(READ_RESOURCE_NAME);

    const listed = textOf(await list!.execute("1", { query: "first" }));
    expect(listed).toContain(
      "- notes fixture://notes/first — Note first (text/plain): The note called first.",
    );
    expect(listed).not.toContain("fixture://blob");
    expect(textOf(await list!.execute("2", {}))).toContain("- notes fixture://notes/{name} — note-by-name");

    expect(textOf(await read!.execute("3", { server: "notes", uri: "fixture://notes/first" }))).toBe(
      "[resource fixture://notes/first (text/plain)]\nThe first note.",
    );
    expect(textOf(await read!.execute("4", { server: "notes", uri: "fixture://blob" }))).toBe(
      "[resource fixture://blob (image/png)] binary, 12 B",
    );
    const bad = await read!.execute("5", { server: "notes" });
    expect(bad.isError).toBe(true);
  });

  it("has no resource tools without resources, or with resourceTools: false", async () => {
    await world.write(world.userFile, { mcpServers: { plain: echoServer() } });
    const { session } = await world.start();
    expect(session.activeTools().map((tool) => tool.name)).not.toContain(LIST_RESOURCES_NAME);
    await world.write(world.userFile, { mcpServers: { notes: contentServer() } });
    const off = await world.start({ resourceTools: false });
    expect(off.session.activeTools().map((tool) => tool.name)).not.toContain(READ_RESOURCE_NAME);
  });

  it("cuts a huge resource to the tool result budget", async () => {
    await world.write(world.userFile, { mcpServers: { huge: fixtureServer({ hugeResource: 300_000 }) } });
    const { session } = await world.start({ manager: { resultCharLimit: 5000 } });
    const find = () => session.activeTools().find((tool) => tool.name === READ_RESOURCE_NAME);
    await expect.poll(find).toBeDefined();
    const read = find();
    const text = textOf(await read!.execute("1", { server: "huge", uri: "fixture://huge" }));
    expect(text.length).toBeLessThan(6000);
  });

  it("instructions() labels each server's instructions", async () => {
    await world.write(world.userFile, {
      mcpServers: { everything: { command: process.execPath, args: [everythingEntry] }, plain: echoServer() },
    });
    const { session } = await world.start();
    const instructions = session.instructions();
    expect(instructions).toMatch(
      /^Instructions from MCP server "everything" \(the server's own words about its tools\):\n/,
    );
    expect(instructions).not.toContain('"plain"');
  });

  it("/mcp resources, /mcp read, /mcp prompts and /prompt", async () => {
    await world.write(world.userFile, {
      mcpServers: {
        everything: { command: process.execPath, args: [everythingEntry] },
        notes: contentServer(),
      },
    });
    const { session } = await world.start();
    const mcp = new MCPCommandController(session);
    await expect.poll(() => session.mcpManager?.getPrompts().length).toBe(5);
    const list = await mcp.handle("/mcp list");
    expect(list.text).toMatch(/● notes +connected · \d+ tools · 3 resources · 1 prompt · /);
    const resources = await mcp.handle("/mcp resources notes");
    expect(resources.ok).toBe(true);
    expect(resources.text).toContain("- notes fixture://notes/first");
    expect(resources.text).not.toContain("everything");
    expect((await mcp.handle("/mcp resources nope")).ok).toBe(false);

    const read = await mcp.handle("/mcp read notes fixture://notes/first");
    expect(read).toMatchObject({
      ok: true,
      text: "[resource fixture://notes/first (text/plain)]\nThe first note.",
    });
    const missing = await mcp.handle("/mcp read notes nope://x");
    expect(missing.ok).toBe(false);

    const prompts = await mcp.handle("/mcp prompts");
    expect(prompts.text).toContain("- everything args-prompt (city*, state)");
    expect(prompts.text).toContain("- notes greet (who*)");

    const prompt = await mcp.handle('/prompt everything args-prompt {"city": "New York", "state": "NY"}');
    expect(prompt.ok).toBe(true);
    expect(prompt.text).toContain("New York");
    const data = prompt.data as { messages: Array<{ role: string }> };
    expect(data.messages[0]?.role).toBe("user");
    const badJson = await mcp.handle("/prompt everything args-prompt {city}");
    expect(badJson).toMatchObject({ ok: false });
    expect(badJson.text).toMatch(/JSON object/);
    expect((await mcp.handle("/prompt everything args-prompt")).ok).toBe(false);
  });

  it("attaches @server:uri resources to a prompt line", async () => {
    await world.write(world.userFile, { mcpServers: { notes: contentServer() } });
    const { session } = await world.start();
    const line = "Summarise @notes:fixture://notes/first and @notes:fixture://blob, mail me@example.com";
    const attached = await session.attachResources(line);
    expect(attached.attachments.map((attachment) => attachment.uri)).toEqual([
      "fixture://notes/first",
      "fixture://blob",
    ]);
    expect(attached.text).toBe(
      `${line}\n\n<attachment server="notes" uri="fixture://notes/first">\n[resource fixture://notes/first (text/plain)]\nThe first note.\n</attachment>\n\n<attachment server="notes" uri="fixture://blob">\n[resource fixture://blob (image/png)] binary, 12 B\n</attachment>`,
    );
    expect((await session.attachResources("no mentions here")).text).toBe("no mentions here");
  });
});
