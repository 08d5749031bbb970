import { type CustomTool, DeferredMCPTool, loadAllMCPConfigs, MCPTool, MCPToolCache } from "@mcp-rt/manager";
import { echoServer, exitServer, isProcessAlive, slowInitServer } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MCPCommandController } from "../src/mcp-command-controller.js";
import { createToolRegistry } from "../src/tool-registry.js";
import { fakeTool } from "./fake-tool.js";
import { activeMCPNames, createWorld, pidOf, type World } from "./helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.cleanup();
});

describe("createAgentSession", () => {
  it("connects the configured servers and activates their tools next to the agent's own", async () => {
    await world.write(world.userFile, {
      mcpServers: { alpha: echoServer({ name: "alpha-server" }), beta: echoServer({ tools: 2 }) },
    });
    const registry = createToolRegistry();
    const bash = fakeTool("bash");
    const grep = fakeTool("grep");
    registry.add(bash);
    registry.add(grep);
    registry.setActive(["bash"]);
    const connecting: string[][] = [];
    const { session, mcpManager, mcpErrors } = await world.start({
      registry,
      onConnecting: (names) => connecting.push(names),
    });
    expect(mcpErrors).toEqual([]);
    expect(session.mcpManager).toBe(mcpManager);
    expect(connecting).toEqual([["alpha", "beta"]]);
    expect(registry.active()).toEqual([
      "bash",
      "mcp_alpha_echo",
      "mcp_beta_echo",
      "mcp_beta_tool_0",
      "mcp_beta_tool_1",
    ]);
    expect(registry.list().slice(0, 2)).toEqual([bash, grep]);
    const echo = registry.list().find((tool) => tool.name === "mcp_alpha_echo")!;
    expect(echo).toMatchObject({ origin: "mcp:alpha via mcp-rt" });
    const result = await echo.execute("call-1", { message: "hello" });
    expect(JSON.stringify(result.content)).toContain("hello");
  });

  it("onManager hands over the manager before any server connects, so every event can be followed", async () => {
    await world.write(world.userFile, { mcpServers: { alpha: echoServer(), beta: echoServer() } });
    const events: string[] = [];
    let handed: unknown;
    const { mcpManager } = await world.start({
      onManager: (manager) => {
        handed = manager;
        events.push(`manager with ${manager.getServerStates().length} servers`);
        manager.on("server:connecting", ({ name }) => events.push(`connecting ${name}`));
        manager.on("server:connected", ({ name }) => events.push(`connected ${name}`));
      },
      onConnecting: (names) => events.push(`onConnecting ${names.join(",")}`),
    });
    expect(handed).toBe(mcpManager);
    expect(events[0]).toBe("manager with 0 servers");
    expect(events[1]).toBe("onConnecting alpha,beta");
    expect(events.slice(2).sort()).toEqual([
      "connected alpha",
      "connected beta",
      "connecting alpha",
      "connecting beta",
    ]);
  });

  it("a signal stops startup: aborted while the files are read nothing starts, aborted while servers connect they stop", async () => {
    await world.write(world.userFile, {
      mcpServers: { quick: echoServer(), stuck: slowInitServer(20_000) },
    });
    const early = new AbortController();
    const connecting: string[] = [];
    const first = await world.start({
      signal: early.signal,
      discover: async (cwd, options) => {
        const found = await loadAllMCPConfigs(cwd, options);
        early.abort();
        return found;
      },
      onManager: (manager) => manager.on("server:connecting", ({ name }) => connecting.push(name)),
    });
    expect(connecting).toEqual([]);
    expect(first.session.mcpTools()).toEqual([]);

    const late = new AbortController();
    const started = performance.now();
    const second = await world.start({
      signal: late.signal,
      manager: { maxStartupWaitMs: 15_000 },
      onManager: (manager) => manager.on("server:connected", () => late.abort()),
    });
    // Without the stop, startup would wait 15 s for the stuck server (no cache entry).
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(second.session.mcpManager!.getConnectionStatus("stuck")).toBe("disconnected");
  });

  it("an onManager that throws is logged and startup goes on", async () => {
    await world.write(world.userFile, { mcpServers: { quick: echoServer() } });
    const { session } = await world.start({
      onManager: () => {
        throw new Error("ui not ready");
      },
    });
    expect(world.logger.lines).toContain("warn: onManager threw: ui not ready");
    expect(activeMCPNames(session)).toEqual(["mcp_quick_echo"]);
  });

  it("with logErrors: false returns the errors without logging them", async () => {
    await world.write(world.userFile, { mcpServers: { good: echoServer(), dies: exitServer(3) } });
    const { mcpErrors } = await world.start({ logErrors: false });
    expect(mcpErrors.map((error) => error.path)).toEqual(["mcp:dies"]);
    expect(world.logger.lines.filter((line) => line.includes("mcp:dies"))).toEqual([]);
  });

  it("with enableMCP: false reads no config and starts nothing", async () => {
    await world.write(world.userFile, { mcpServers: { alpha: echoServer() } });
    const onConnecting = vi.fn();
    const exaKeys: string[][] = [];
    const { session, mcpManager, mcpErrors } = await world.start({
      enableMCP: false,
      onConnecting,
      nativeExa: (keys) => {
        exaKeys.push(keys);
        return [fakeTool("web_search")];
      },
    });
    expect(mcpManager).toBeUndefined();
    expect(session.mcpManager).toBeUndefined();
    expect(mcpErrors).toEqual([]);
    expect(onConnecting).not.toHaveBeenCalled();
    expect(exaKeys).toEqual([[]]);
    expect(session.registry.active()).toEqual(["web_search"]);
    await expect(session.reload({ all: true })).rejects.toMatchObject({ code: "NOT_CONNECTED" });
  });

  it("reports broken files and servers, logs them, and keeps the rest", async () => {
    await world.write(world.userFile, {
      mcpServers: {
        good: echoServer(),
        dies: exitServer(3),
        invalid: { command: "" },
      },
    });
    await world.write(`${world.cwd}/.cursor/mcp.json`, "{ not json");
    const { session, mcpErrors } = await world.start({ discovery: { trust: "all" } });
    const paths = mcpErrors.map((error) => error.path);
    expect(paths).toContain("mcp:dies");
    expect(paths).toContain(world.userFile);
    expect(paths).toContain(`${world.cwd}/.cursor/mcp.json`);
    expect(activeMCPNames(session)).toEqual(["mcp_good_echo"]);
    expect(world.logger.lines.some((line) => line.startsWith("error: MCP mcp:dies"))).toBe(true);
    expect(world.logger.lines.some((line) => line.startsWith("warn: MCP config"))).toBe(true);
  });

  it("starts without a cache when the cache URL is unusable, and says so", async () => {
    await world.write(world.userFile, { mcpServers: { alpha: echoServer() } });
    const { session, mcpErrors } = await world.start({ manager: { cache: "ftp://cache.test" } });
    expect(mcpErrors).toEqual([
      { path: "ftp://cache.test", error: expect.stringMatching(/tool cache unavailable/) },
    ]);
    expect(activeMCPNames(session)).toEqual(["mcp_alpha_echo"]);
  });

  it("survives a discovery that throws: no tools, one .mcp.json error", async () => {
    const { session, mcpErrors } = await world.start({
      discover: async () => {
        throw new Error("disk on fire");
      },
    });
    expect(mcpErrors).toEqual([{ path: ".mcp.json", error: "disk on fire" }]);
    expect(session.mcpTools()).toEqual([]);
  });

  it("follows a server that connects after startup, without a reload", async () => {
    await world.write(world.userFile, {
      mcpServers: { quick: echoServer(), late: slowInitServer(2500, { tools: 1 }) },
    });
    const { session } = await world.start({ manager: { maxStartupWaitMs: 300 } });
    // Startup did not wait for the late server (no cache entry, but bounded by maxStartupWaitMs).
    expect(activeMCPNames(session)).not.toContain("mcp_late_echo");
    expect(session.mcpManager!.getConnectionStatus("late")).toBe("connecting");
    await vi.waitFor(() => expect(activeMCPNames(session)).toContain("mcp_late_tool_0"), { timeout: 10_000 });
    expect(activeMCPNames(session).sort()).toEqual(["mcp_late_echo", "mcp_late_tool_0", "mcp_quick_echo"]);
  });

  it("starts with cached tools of a slow server and swaps in the live ones when it is up", async () => {
    await world.write(world.userFile, { mcpServers: { late: slowInitServer(800) } });
    const first = await world.start();
    expect(activeMCPNames(first.session)).toEqual(["mcp_late_echo"]);
    await first.session.dispose();

    const { session } = await world.start({ manager: { startupTimeoutMs: 50 } });
    const [deferred] = session.mcpTools() as Array<CustomTool & { wrapped: CustomTool }>;
    expect(deferred?.wrapped).toBeInstanceOf(DeferredMCPTool);
    expect(activeMCPNames(session)).toEqual(["mcp_late_echo"]);
    await vi.waitFor(
      () =>
        expect((session.mcpTools()[0] as unknown as { wrapped: unknown }).wrapped).toBeInstanceOf(MCPTool),
      { timeout: 10_000 },
    );
    expect(activeMCPNames(session)).toEqual(["mcp_late_echo"]);
  });

  it("leaves Exa servers to a native Exa integration only when one is given", async () => {
    await world.write(world.userFile, {
      mcpServers: {
        exa: { ...echoServer(), env: { EXA_API_KEY: "key-123" } },
        other: echoServer(),
      },
    });
    const withNative = await world.start({ nativeExa: (keys) => [fakeTool(`web_search_${keys.join("_")}`)] });
    expect(withNative.exaApiKeys).toEqual(["key-123"]);
    expect(withNative.session.registry.active().sort()).toEqual(["mcp_other_echo", "web_search_key-123"]);
    await withNative.session.dispose();

    const without = await world.start();
    expect(without.exaApiKeys).toEqual([]);
    expect(activeMCPNames(without.session).sort()).toEqual(["mcp_exa_echo", "mcp_other_echo"]);
  });

  it("/mcp reload hands the Exa keys found then to nativeExa and replaces its tools", async () => {
    const exa = (key: string) => ({ exa: { ...echoServer(), env: { EXA_API_KEY: key } } });
    await world.write(world.userFile, { mcpServers: { ...exa("old-key"), other: echoServer() } });
    const calls: string[][] = [];
    const { session } = await world.start({
      nativeExa: (keys) => {
        calls.push(keys);
        if (keys.includes("broken")) throw new Error("no such key");
        return [fakeTool(`web_search_${keys.join("_")}`)];
      },
    });
    const bash = fakeTool("bash");
    session.registry.add(bash);
    const mcp = new MCPCommandController(session);

    await world.write(world.userFile, { mcpServers: { ...exa("new-key"), other: echoServer() } });
    expect((await mcp.handle("/mcp reload")).ok).toBe(true);
    expect(calls).toEqual([["old-key"], ["new-key"]]);
    expect(session.nativeKeys).toEqual(["new-key"]);
    expect(session.registry.list().map((tool) => tool.name)).not.toContain("web_search_old-key");
    expect(session.registry.active().sort()).toEqual(["mcp_other_echo", "web_search_new-key"]);
    expect(session.registry.list()).toContain(bash);

    // An integration that throws keeps its previous tools and says why.
    await world.write(world.userFile, { mcpServers: { ...exa("broken"), other: echoServer() } });
    expect((await mcp.handle("/mcp reload")).ok).toBe(true);
    expect(session.registry.active()).toContain("web_search_new-key");
    expect(world.logger.lines).toContain("warn: Native Exa tools not updated: no such key");

    await session.dispose();
    expect(session.registry.list()).toEqual([bash]);
  });

  it("dispose stops every server and removes its tools; await using works", async () => {
    await world.write(world.userFile, { mcpServers: { alpha: echoServer() } });
    let pid = 0;
    {
      await using session = (await world.start({ manager: { cache: new MCPToolCache(new Map()) } })).session;
      pid = await pidOf(session, "alpha");
      expect(isProcessAlive(pid)).toBe(true);
    }
    expect(isProcessAlive(pid)).toBe(false);
    expect(world.sessions[0]!.mcpTools()).toEqual([]);
  });
});
