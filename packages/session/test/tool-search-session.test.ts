import type { CustomTool } from "@mcp-rt/manager";
import { echoServer, listChangingServer, manyToolsServer } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MCPCommandController } from "../src/mcp-command-controller.js";
import type { MCPServerList } from "../src/mcp-server-list.js";
import { TOOL_SEARCH_NAME } from "../src/model-tools.js";
import { createWorld, type World } from "./helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(() => world.cleanup());

const names = (tools: readonly CustomTool[]): string[] => tools.map((tool) => tool.name);
const many = manyToolsServer(40);
/** `/mcp add` of the fixture with 40 extra tools (about 2k tokens). */
const addMany = `/mcp add many -- ${many.command} ${many.args!.join(" ")}`;

describe("tool search in a session", () => {
  it("switches on and off across the auto threshold as servers come and go", async () => {
    await world.write(world.userFile, { mcpServers: { echo: echoServer() } });
    const { session } = await world.start({ toolSearch: { auto: 1000 } });
    const mcp = new MCPCommandController(session);
    const tools = session.modelTools();
    expect(session.toolTokens().total).toBeLessThan(1000);
    expect(session.toolSearch.active).toBe(false);
    expect(names(tools.visible())).toEqual(["mcp_echo_echo"]);

    expect((await mcp.handle(addMany)).ok).toBe(true);
    expect(session.toolTokens().total).toBeGreaterThan(1000);
    expect(session.toolSearch.active).toBe(true);
    expect(names(tools.visible())).toEqual([TOOL_SEARCH_NAME]);
    expect(tools.find(TOOL_SEARCH_NAME)).toBe(tools.searchTool);
    expect(tools.searchTool.description).toContain("by server: echo (1), many (41).");

    expect((await mcp.handle("/mcp disable many")).ok).toBe(true);
    expect(session.toolSearch.active).toBe(false);
    expect(names(tools.visible())).toEqual(["mcp_echo_echo"]);
    expect(tools.find(TOOL_SEARCH_NAME)).toBeUndefined();
  });

  it("loads what mcp_tool_search finds for the following requests, keeping the most recent up to the cap", async () => {
    await world.write(world.userFile, { mcpServers: { many } });
    const { session } = await world.start({ toolSearch: "on", maxLoadedTools: 3 });
    const tools = session.modelTools();
    const result = await tools.searchTool.execute("call-1", { query: "extra fixture tool 7" });
    const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    expect(text).toMatch(/^3 tools for "extra fixture tool 7", loaded: call them by name from now on\.\n/);
    expect(text).toContain("- mcp_many_tool_7 (many) — Extra fixture tool 7 of 40.");
    expect(tools.loaded()).toHaveLength(3);
    expect(tools.loaded().at(-1)).toBe("mcp_many_tool_7");
    expect(names(tools.visible())).toEqual([
      ...session
        .activeTools()
        .map((tool) => tool.name)
        .filter((name) => tools.loaded().includes(name)),
      TOOL_SEARCH_NAME,
    ]);

    // Calling a tool keeps it; the least recently used one leaves when a new one comes.
    const [oldest] = tools.loaded();
    expect(tools.find(oldest!)?.name).toBe(oldest);
    tools.load(["mcp_many_echo"]);
    expect(tools.loaded()).toHaveLength(3);
    expect(tools.loaded()).toContain(oldest);
    expect(tools.loaded().at(-1)).toBe("mcp_many_echo");

    // A bad call says what to send.
    const bad = await tools.searchTool.execute("call-2", { limit: 2 });
    expect(bad.isError).toBe(true);
    // Another conversation starts with nothing loaded.
    expect(names(session.modelTools().visible())).toEqual([TOOL_SEARCH_NAME]);
  });

  it("always gives the model an alwaysLoad server's tools, pins and unpins with /mcp pin, and shows tokens in /mcp list", async () => {
    await world.write(world.userFile, { mcpServers: { echo: { ...echoServer(), alwaysLoad: true }, many } });
    const { session } = await world.start({ toolSearch: "on" });
    const mcp = new MCPCommandController(session);
    const tools = session.modelTools();
    expect(names(tools.visible())).toEqual(["mcp_echo_echo", TOOL_SEARCH_NAME]);

    const list = await mcp.handle("/mcp list");
    const { tokens } = session.toolTokens().servers.echo!;
    expect(list.text).toMatch(
      new RegExp(
        `● echo +connected · 1 tool · \\d+ ms · 2025-11-25 \\(legacy\\) · ~${tokens} tokens · always loaded`,
      ),
    );
    expect(list.text).toMatch(
      /● many +connected · 41 tools · \d+ ms · 2025-11-25 \(legacy\) · ~\d\.\dk tokens\n/,
    );
    expect(list.text).toMatch(/MCP tool definitions: ~\d\.\dk tokens in all · tool search on/);
    const data = list.data as MCPServerList;
    const entries = data.groups.flatMap((group) => group.entries);
    expect(entries.find((entry) => entry.name === "echo")).toMatchObject({ tokens, alwaysLoad: true });
    expect(data.tokens).toEqual({
      total: session.toolTokens().total,
      toolSearch: true,
      summary: "tool search on",
    });

    const pinned = await mcp.handle("/mcp pin many");
    expect(pinned.text).toMatch(/^📌 Pinned many: its 41 tools \(~\d\.\dk tokens\) always go to the model/);
    expect(tools.visible()).toHaveLength(43);
    expect((await world.read(world.userFile)).mcpServers).toMatchObject({ many: { alwaysLoad: true } });

    expect((await mcp.handle("/mcp unpin echo")).ok).toBe(true);
    expect((await mcp.handle("/mcp unpin many")).ok).toBe(true);
    expect(names(tools.visible())).toEqual([TOOL_SEARCH_NAME]);
    const file = await world.read(world.userFile);
    expect(file.mcpServers).not.toHaveProperty("many.alwaysLoad");
    expect(file.mcpServers).not.toHaveProperty("echo.alwaysLoad");
  });

  it("pins a server of another client's file through alwaysLoadServers, which a reload reads back", async () => {
    await world.write(`${world.home}/.cursor/mcp.json`, { mcpServers: { cursor: echoServer() } });
    await world.write(world.userFile, { mcpServers: { many } });
    const { session } = await world.start({ toolSearch: "on" });
    const mcp = new MCPCommandController(session);
    expect((await mcp.handle("/mcp pin cursor")).ok).toBe(true);
    expect(await world.read(world.userFile)).toMatchObject({ alwaysLoadServers: ["cursor"] });
    expect(await world.read(`${world.home}/.cursor/mcp.json`)).toEqual({
      mcpServers: { cursor: echoServer() },
    });
    expect((await mcp.handle("/mcp reload")).ok).toBe(true);
    expect(session.toolSearch.alwaysLoadedServers()).toEqual(["cursor"]);
    expect(names(session.modelTools().visible())).toEqual(["mcp_cursor_echo", TOOL_SEARCH_NAME]);
    expect((await mcp.handle("/mcp pin nobody")).text).toMatch(/No MCP server named "nobody"/);
  });

  it("re-indexes when a server's tools change (list_changed)", async () => {
    // A server whose tools change on purpose: its new tools are taken as they come, not held for review.
    await world.write(world.userFile, {
      mcpServers: { changing: { ...listChangingServer(), toolChanges: "allow" } },
    });
    const { session } = await world.start({ toolSearch: "on" });
    expect(session.toolSearch.search("zebra stripes")).toEqual([]);
    const tools = session.modelTools();
    await tools.find("mcp_changing_add_tool")!.execute("call-1", { name: "zebra_stripes" });
    await vi.waitFor(
      () => expect(session.toolSearch.search("zebra stripes")[0]?.name).toBe("mcp_changing_zebra_stripes"),
      { timeout: 5000 },
    );
    await tools.find("mcp_changing_remove_tool")!.execute("call-2", { name: "zebra_stripes" });
    // The manager lists a server's tools again at most once a second
    // (minRelistIntervalMs), so this re-list may wait most of a second first.
    await vi.waitFor(() => expect(session.toolSearch.search("zebra stripes")).toEqual([]), { timeout: 5000 });
  });

  it("rejects a bad toolSearch option before any server starts", async () => {
    await world.write(world.userFile, { mcpServers: { echo: echoServer() } });
    await expect(world.start({ toolSearch: { auto: -1 } })).rejects.toThrow(
      /toolSearch: must be "off", "on" or \{ auto/,
    );
  });
});
