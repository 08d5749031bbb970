import { join } from "node:path";
import { echoServer, isProcessAlive, serverProcessesOf } from "@mcp-rt/testing";
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

describe("/mcp trust", () => {
  it("holds project servers back until approved, then starts them; a changed config asks again", async () => {
    await world.write(world.userFile, { mcpServers: { mine: echoServer() } });
    await world.write(join(world.cwd, ".mcp.json"), { mcpServers: { proj: echoServer({ tools: 1 }) } });
    const first = await world.start();
    const mcp = new MCPCommandController(first.session);
    expect(activeMCPNames(first.session)).toEqual(["mcp_mine_echo"]);
    expect((await mcp.handle("/mcp list")).text).toMatch(/\? proj\s+needs approval/);
    // An unapproved project server is never run, not even by /mcp test.
    const test = await mcp.handle("/mcp test proj");
    expect(test.ok).toBe(false);
    expect(test.text).toMatch(/waits for project approval/);
    expect(serverProcessesOf(process.pid)).toHaveLength(1);
    const trusted = await mcp.handle("/mcp trust");
    expect(trusted.ok, trusted.text).toBe(true);
    expect(trusted.text).toMatch(/● proj: connected/);
    expect(activeMCPNames(first.session).sort()).toEqual([
      "mcp_mine_echo",
      "mcp_proj_echo",
      "mcp_proj_tool_0",
    ]);
    expect((await mcp.handle("/mcp trust")).text).toMatch(/No project-level MCP servers wait/);
    await first.session.dispose();

    const second = await world.start();
    expect(activeMCPNames(second.session)).toContain("mcp_proj_echo");
    await second.session.dispose();

    await world.write(join(world.cwd, ".mcp.json"), { mcpServers: { proj: echoServer({ tools: 2 }) } });
    const third = await world.start();
    expect(activeMCPNames(third.session)).toEqual(["mcp_mine_echo"]);
    const third_mcp = new MCPCommandController(third.session);
    expect((await third_mcp.handle("/mcp trust")).ok).toBe(true);
    // It runs other arguments than when its tools were approved: they wait for the user's review too.
    expect((await third_mcp.handle("/mcp review proj")).text).toMatch(
      /server: runs .*--tools=2.*, was .*--tools=1/,
    );
    expect((await third_mcp.handle("/mcp review proj approve")).ok).toBe(true);
    expect(activeMCPNames(third.session)).toContain("mcp_proj_tool_1");
    const pid = await pidOf(third.session, "proj");
    const untrusted = await third_mcp.handle("/mcp untrust");
    expect(untrusted.ok, untrusted.text).toBe(true);
    expect(isProcessAlive(pid)).toBe(false);
    expect(activeMCPNames(third.session)).toEqual(["mcp_mine_echo"]);
  });

  it("keeps an approval across the user's own /mcp add --scope project", async () => {
    await world.write(join(world.cwd, ".mcp.json"), { mcpServers: { proj: echoServer() } });
    const { session } = await world.start();
    const mcp = new MCPCommandController(session);
    expect((await mcp.handle("/mcp trust")).ok).toBe(true);
    const fixture = echoServer();
    const added = await mcp.handle(
      `/mcp add extra --scope project -- ${fixture.command} ${fixture.args!.join(" ")}`,
    );
    expect(added.ok, added.text).toBe(true);
    expect(added.text).toMatch(/● extra: connected/);
    const reload = await mcp.handle("/mcp reload");
    expect(reload.data).toMatchObject({ needsApproval: [] });
    expect(activeMCPNames(session).sort()).toEqual(["mcp_extra_echo", "mcp_proj_echo"]);
  });

  it("/mcp enable of a server the project disabled does not start it: it waits for /mcp trust", async () => {
    const evil = echoServer({ tools: 1 });
    await world.write(world.projectFile, { mcpServers: { evil: { ...evil, enabled: false } } });
    const { session } = await world.start();
    const mcp = new MCPCommandController(session);
    const enabled = await mcp.handle("/mcp enable evil");
    expect(enabled.ok).toBe(false);
    expect(enabled.text).toMatch(/evil is defined by the project .*waits for your approval/);
    expect(serverProcessesOf(process.pid)).toHaveLength(0);
    expect((await mcp.handle("/mcp reload")).data).toMatchObject({ needsApproval: ["evil"] });
    expect(serverProcessesOf(process.pid)).toHaveLength(0);
    const trusted = await mcp.handle("/mcp trust");
    expect(trusted.text).toContain(`evil (.mcp-rt/mcp.json): ${evil.command}`);
    expect(trusted.text).toMatch(/● evil: connected/);
  });

  it("/mcp enable in an approved project does not approve the server it brings back", async () => {
    const other = echoServer();
    await world.write(join(world.cwd, ".mcp.json"), { mcpServers: { proj: other } });
    await world.write(world.projectFile, {
      mcpServers: { evil: { ...echoServer({ tools: 1 }), enabled: false } },
    });
    const { session } = await world.start();
    const mcp = new MCPCommandController(session);
    expect((await mcp.handle("/mcp trust")).text).toMatch(/● proj: connected/);
    const enabled = await mcp.handle("/mcp enable evil");
    expect(enabled.ok).toBe(false);
    expect(session.mcpManager!.getConnectionStatus("evil")).toBe("disconnected");
    const reload = await mcp.handle("/mcp reload");
    expect(reload.data).toMatchObject({ needsApproval: expect.arrayContaining(["evil"]) });
    expect(session.mcpManager!.getConnectionStatus("evil")).toBe("disconnected");
  });

  it("/mcp trust shows the env file and the changes to the user's servers, then applies them", async () => {
    await world.write(world.userFile, { mcpServers: { mine: echoServer(), kept: echoServer() } });
    await world.write(world.projectFile, { disabledServers: ["mine"] });
    const api = echoServer();
    await world.write(join(world.cwd, ".cursor", "mcp.json"), {
      mcpServers: { api: { ...api, envFile: ".env" } },
    });
    await world.write(join(world.cwd, ".env"), "API_KEY=from-env-file\n");
    const { session } = await world.start();
    const mcp = new MCPCommandController(session);
    // Not approved yet: the project's disabledServers does not turn the user's server off.
    expect(activeMCPNames(session).sort()).toEqual(["mcp_kept_echo", "mcp_mine_echo"]);
    const explained = await mcp.handle("/mcp explain mine");
    expect(explained.text).toContain("held back: the project's .mcp-rt/mcp.json would turn it off");
    const apiExplained = await mcp.handle("/mcp explain api");
    expect(apiExplained.text).toContain("env file: .env (not read until the project is approved)");
    expect(apiExplained.text).not.toContain("from-env-file");
    const trusted = await mcp.handle("/mcp trust");
    expect(trusted.ok, trusted.text).toBe(true);
    expect(trusted.text).toContain("  env file: .env");
    expect(trusted.text).toContain("your mine (~/.mcp-rt/mcp.json): .mcp-rt/mcp.json would turn it off");
    expect(trusted.text).toMatch(/● api: connected/);
    expect(activeMCPNames(session).sort()).toEqual(["mcp_api_echo", "mcp_kept_echo"]);
    const untrusted = await mcp.handle("/mcp untrust");
    expect(untrusted.ok, untrusted.text).toBe(true);
    expect(activeMCPNames(session).sort()).toEqual(["mcp_kept_echo", "mcp_mine_echo"]);
  });
});
