import { MCPToolCache } from "@mcp-rt/cache";
import { echoServer, manyToolsServer, slowInitServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { DeferredMCPTool } from "../src/index.js";
import { echoDefinition as echoDef, textOf, useManagers } from "./helpers.js";

const cwd = process.cwd();

const manager = useManagers();

describe("tools and results", () => {
  it("applies includeTools / excludeTools before naming", async () => {
    const m = manager();
    const result = await m.connectServers(
      {
        many: {
          ...manyToolsServer(5, { pageSize: 2 }),
          includeTools: ["tool_1", "tool_2", "tool_3"],
          excludeTools: ["tool_2"],
        },
      },
      {},
    );
    expect(result.tools.map((t) => t.name)).toEqual(["mcp_many_tool_1", "mcp_many_tool_3"]);
  });

  it('never exposes an MCP Apps tool whose visibility lacks "model", and names it in the state', async () => {
    const m = manager();
    const result = await m.connectServers({ app: echoServer({ appTools: true }) }, {});
    expect(result.tools.map((t) => m.getToolOwner(t.name)?.tool)).toEqual(["echo", "app_view"]);
    const state = m.getServerStates().find((one) => one.name === "app");
    expect(state).toMatchObject({ toolCount: 2, appOnlyTools: ["app_refresh"] });
    // excludeTools still wins, for app-only tools as for the others.
    const excluded = manager();
    await excluded.connectServers(
      { app: { ...echoServer({ appTools: true }), excludeTools: ["app_refresh"] } },
      {},
    );
    expect(excluded.getServerStates()[0]?.appOnlyTools).toBeUndefined();
  });

  it("keeps an app-only tool hidden on a warm start, while its definitions come from the cache", async () => {
    const cache = new MCPToolCache(new Map());
    const slow = slowInitServer(3000);
    const appOnly = {
      name: "refresh",
      inputSchema: { type: "object" },
      _meta: { ui: { visibility: ["app"] } },
    };
    await cache.set({ serverName: "slow", config: slow, cwd }, { tools: [echoDef, appOnly] });
    const m = manager({ cache });
    const result = await m.connectServers({ slow }, {});
    expect(result.tools.map((t) => t.name)).toEqual(["mcp_slow_echo"]);
    expect(result.tools[0]).toBeInstanceOf(DeferredMCPTool);
    expect(m.getServerStates()[0]).toMatchObject({ deferred: true, appOnlyTools: ["refresh"] });
  });

  it("keeps a map from exposed name to (server, tool), and removal is exact: a vs a_b", async () => {
    const m = manager();
    await m.connectServers({ a: echoServer({ toolPrefix: "b_" }), a_b: echoServer() }, {});
    const names = m.getTools().map((t) => t.name);
    expect(names).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(name).toMatch(/^mcp_a_b_echo_[0-9a-f]{8}$/);
    const owners = names.map((n) => m.getToolOwner(n));
    expect(owners).toEqual([
      { server: "a", tool: "b_echo" },
      { server: "a_b", tool: "echo" },
    ]);
    await m.disconnectServer("a");
    expect(m.getTools().map((t) => m.getToolOwner(t.name))).toEqual([{ server: "a_b", tool: "echo" }]);
    expect(textOf(await m.getTools()[0]!.execute("c", { message: "ok" }))).toBe("ok");
  });

  it("tool errors and bad arguments come back as content, never as a throw", async () => {
    const m = manager();
    const [echo] = (await m.connectServers({ s: echoServer() }, {})).tools;
    const wrong = await echo!.execute("c", { message: 42 });
    expect(wrong.isError).toBe(true);
    const notObject = await echo!.execute("c", "just a string");
    expect(notObject.isError).toBe(true);
    expect(textOf(notObject)).toMatch(/^MCP error: /);
  });

  it("an aborted call rejects with AbortError", async () => {
    const m = manager();
    const [echo] = (await m.connectServers({ s: echoServer() }, {})).tools;
    const controller = new AbortController();
    controller.abort();
    await expect(echo!.execute("c", { message: "x" }, controller.signal)).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("an abort while a deferred tool waits for its server rejects with AbortError", async () => {
    const cache = new MCPToolCache(new Map());
    const slow = slowInitServer(3000);
    await cache.set({ serverName: "slow", config: slow, cwd }, { tools: [echoDef] });
    const m = manager({ cache });
    const [deferred] = (await m.connectServers({ slow }, {})).tools;
    const started = performance.now();
    await expect(deferred!.execute("c", { message: "x" }, AbortSignal.timeout(200))).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("a deferred tool the live server no longer has says so", async () => {
    const cache = new MCPToolCache(new Map());
    const slow = slowInitServer(600);
    await cache.set(
      { serverName: "slow", config: slow, cwd },
      { tools: [echoDef, { name: "gone", inputSchema: { type: "object" } }] },
    );
    const m = manager({ cache });
    const result = await m.connectServers({ slow }, {});
    const gone = result.tools.find((t) => t.name === "mcp_slow_gone")!;
    expect(gone).toBeInstanceOf(DeferredMCPTool);
    const out = await gone.execute("c", {});
    expect(textOf(out)).toBe('MCP error: tool "gone" is no longer provided by server "slow"');
    expect(m.getTools().map((t) => t.name)).toEqual(["mcp_slow_echo"]);
  });
});
