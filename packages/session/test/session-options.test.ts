import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { MCPToolCache } from "@mcp-rt/manager";
import { echoServer, isProcessAlive, slowInitServer } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAgentSession } from "../src/create-agent-session.js";
import { activeMCPNames, createWorld, pidOf, type World } from "./helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.cleanup();
});

describe("createAgentSession's manager options", () => {
  it("passes every manager option through: resultCharLimit cuts results, reconnect: false leaves a dead server down", async () => {
    await world.write(world.userFile, { mcpServers: { alpha: echoServer() } });
    const { session } = await world.start({
      manager: { resultCharLimit: 10, reconnect: false },
      resultSpill: false,
    });
    const echo = session.registry.list().find((tool) => tool.name === "mcp_alpha_echo")!;
    const result = await echo.execute("call-1", { message: "a message well over ten characters" });
    const text = result.content.map((block) => ("text" in block ? block.text : "")).join("");
    expect(text.startsWith("a message ")).toBe(true);
    expect(text).not.toContain("over ten characters");

    const pid = await pidOf(session, "alpha");
    process.kill(pid, "SIGKILL");
    const manager = session.mcpManager!;
    await expect.poll(() => manager.getServerStates()[0]?.status, { timeout: 5000 }).toBe("disconnected");
    // With reconnecting on, it would be "reconnecting" and come back.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(manager.getServerStates()[0]?.status).toBe("disconnected");
  });

  it("health checks can be turned on for a session", async () => {
    await world.write(world.userFile, { mcpServers: { alpha: echoServer() } });
    const { session } = await world.start({ manager: { healthCheckIntervalMs: 50 } });
    expect(activeMCPNames(session)).toEqual(["mcp_alpha_echo"]);
    const pid = await pidOf(session, "alpha");
    // A stopped server cannot answer the ping: the manager gives up on that connection.
    process.kill(pid, "SIGSTOP");
    try {
      await expect
        .poll(() => session.mcpManager!.getServerStates()[0]?.lastError?.code, { timeout: 5000 })
        .toBe("REQUEST_TIMEOUT");
    } finally {
      if (isProcessAlive(pid)) process.kill(pid, "SIGCONT");
    }
  });
});

describe("createAgentSession's own cache", () => {
  it("with a home of its own, keeps its cache and the cache's key in that home", async () => {
    world.env.XDG_CACHE_HOME = join(world.home, ".cache");
    await world.write(world.userFile, { mcpServers: { alpha: echoServer() } });
    const { session } = await createAgentSession({
      cwd: world.cwd,
      logger: world.logger,
      discovery: { homeDir: world.home, env: world.env },
    });
    world.sessions.push(session);
    expect(activeMCPNames(session)).toEqual(["mcp_alpha_echo"]);
    await session.dispose();
    expect(await readdir(join(world.home, ".cache", "mcp-rt"))).toHaveLength(1);
    expect((await stat(join(world.home, ".mcp-rt", "cache-key"))).mode & 0o777).toBe(0o600);
  });

  it("is closed by the session that opened it, after the manager, at dispose()", async () => {
    await world.write(world.userFile, { mcpServers: { alpha: echoServer() } });
    const close = vi.spyOn(MCPToolCache.prototype, "close");
    try {
      const { session } = await createAgentSession({
        cwd: world.cwd,
        logger: world.logger,
        discovery: { homeDir: world.home, env: world.env },
      });
      world.sessions.push(session);
      expect(close).not.toHaveBeenCalled();
      await session.dispose();
      expect(close).toHaveBeenCalledTimes(1);
    } finally {
      close.mockRestore();
    }
  });

  it("given by the caller, is the caller's: dispose() leaves it open", async () => {
    await world.write(world.userFile, { mcpServers: { alpha: echoServer() } });
    const cache = new MCPToolCache(new Map());
    const close = vi.spyOn(cache, "close");
    const { session } = await createAgentSession({
      cwd: world.cwd,
      logger: world.logger,
      discovery: { homeDir: world.home, env: world.env },
      manager: { cache },
    });
    world.sessions.push(session);
    await session.dispose();
    expect(close).not.toHaveBeenCalled();
  });
});

describe("AgentSession.dispose", () => {
  it("lets a reload under way finish, then stops what it started: no server outlives the session", async () => {
    await world.write(world.userFile, { mcpServers: { slow: slowInitServer(600) } });
    const { session } = await world.start({ manager: { maxStartupWaitMs: 5000 } });
    const reload = session.reload({ all: true });
    await session.dispose();
    await reload;
    expect(session.mcpManager!.getServerStates()).toEqual([]);
    // world.cleanup() checks that no child process is left.
  });
});
