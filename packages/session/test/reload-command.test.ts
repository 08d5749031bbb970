import { join } from "node:path";
import type { MCPConfigChange } from "@mcp-rt/manager";
import { echoServer, exitServer } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MCPCommandController } from "../src/mcp-command-controller.js";
import { activeMCPNames, createWorld, pidOf, type World } from "./helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.cleanup();
});

describe("/mcp reload restarts only what changed", () => {
  it("restarts nothing when nothing changed", async () => {
    await world.write(world.userFile, { mcpServers: { a: echoServer(), b: echoServer() } });
    const { session } = await world.start();
    const pids = [await pidOf(session, "a"), await pidOf(session, "b")];
    const seen: MCPConfigChange[] = [];
    session.mcpManager!.on("config:changed", (change) => seen.push(change));
    const mcp = new MCPCommandController(session);

    const reloaded = await mcp.handle("/mcp reload");
    expect(reloaded.ok, reloaded.text).toBe(true);
    expect(reloaded.text).toMatch(
      /^Reloaded MCP in \d+ ms: nothing changed; 2 unchanged\. 2 servers connected, 2 tools\.$/,
    );
    expect(reloaded.data).toMatchObject({ added: [], removed: [], restarted: [], unchanged: ["a", "b"] });
    expect(seen).toEqual([]);
    expect([await pidOf(session, "a"), await pidOf(session, "b")]).toEqual(pids);
    expect(activeMCPNames(session)).toEqual(["mcp_a_echo", "mcp_b_echo"]);
  });

  it("restarts the edited server, starts the new one, stops the removed one; --all restarts everything", async () => {
    await world.write(world.userFile, {
      mcpServers: { a: echoServer(), b: echoServer(), old: echoServer() },
    });
    // Its edits are the user's own: what approvals ask about an edited server is tested in mcp-review-command.test.ts.
    const { session } = await world.start({ manager: { cache: world.cache, toolChanges: "allow" } });
    const a = await pidOf(session, "a");
    const b = await pidOf(session, "b");
    const mcp = new MCPCommandController(session);
    await world.write(world.userFile, {
      mcpServers: { a: echoServer(), b: echoServer({ tools: 1 }), linear: echoServer() },
    });

    const reloaded = await mcp.handle("/mcp reload");
    expect(reloaded.text).toMatch(/: restarted b; started linear; removed old; 1 unchanged\./);
    expect(await pidOf(session, "a")).toBe(a);
    expect(await pidOf(session, "b")).not.toBe(b);
    expect(activeMCPNames(session)).toEqual(["mcp_a_echo", "mcp_b_echo", "mcp_b_tool_0", "mcp_linear_echo"]);

    const all = await mcp.handle("/mcp reload --all");
    expect(all.data).toMatchObject({ restarted: ["a", "b", "linear"], unchanged: [] });
    expect(await pidOf(session, "a")).not.toBe(a);
    expect((await mcp.handle("/mcp reload --now")).text).toMatch(/unknown option "--now"/);
    expect((await mcp.handle("/mcp help")).text).toContain("/mcp reload [--all]");
  });

  it("tries a failed server again; the others keep their process", async () => {
    await world.write(world.userFile, { mcpServers: { dies: exitServer(2), ok: echoServer() } });
    const { session } = await world.start();
    const ok = await pidOf(session, "ok");
    const failedAgain = new Promise<string>((resolve) =>
      session.mcpManager!.on("server:failed", ({ name }) => resolve(name)),
    );
    const reloaded = await new MCPCommandController(session).handle("/mcp reload");
    expect(reloaded.data).toMatchObject({ restarted: ["dies"], unchanged: ["ok"] });
    // The reload answers after the startup gate: a loaded machine may not have
    // seen the process exit by then, and the server shows as still connecting.
    expect(reloaded.text).toMatch(/✗ dies: |◌ still connecting: dies/);
    expect(await failedAgain).toBe("dies");
    expect(await pidOf(session, "ok")).toBe(ok);
  });

  it("stops project servers whose config changed until /mcp trust", async () => {
    const project = join(world.cwd, ".mcp.json");
    await world.write(project, { mcpServers: { proj: echoServer() } });
    // Its edits are the user's own: what approvals ask about an edited server is tested in mcp-review-command.test.ts.
    const { session } = await world.start({ manager: { cache: world.cache, toolChanges: "allow" } });
    const mcp = new MCPCommandController(session);
    expect((await mcp.handle("/mcp trust")).ok).toBe(true);
    expect((await mcp.handle("/mcp reload")).data).toMatchObject({ unchanged: ["proj"] });

    await world.write(project, { mcpServers: { proj: echoServer({ tools: 1 }) } });
    const reloaded = await mcp.handle("/mcp reload");
    expect(reloaded.data).toMatchObject({ removed: ["proj"], needsApproval: ["proj"] });
    expect(reloaded.text).toMatch(/\? waiting for project approval: proj \(\/mcp trust\)/);
    expect(activeMCPNames(session)).toEqual([]);
    expect((await mcp.handle("/mcp trust")).ok).toBe(true);
    expect(activeMCPNames(session)).toEqual(["mcp_proj_echo", "mcp_proj_tool_0"]);
  });
});
