import { rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { echoServer, isProcessAlive, slowCallServer } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentSession } from "../src/agent-session.js";
import { MCPCommandController } from "../src/mcp-command-controller.js";
import { activeMCPNames, createWorld, nextChange, pidOf, type World } from "./helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.cleanup();
});

/** Waits until the session's active MCP tools are `names` (sorted). */
async function toolsBecome(session: AgentSession, names: string[]): Promise<void> {
  await expect.poll(() => activeMCPNames(session).sort(), { timeout: 10_000 }).toEqual(names);
}

/** How many watched changes the session applied so far (it says so at debug level). */
const applied = (): number =>
  world.logger.lines.filter((line) => line.includes("MCP config files changed")).length;

const fileHandles = (): number =>
  process.getActiveResourcesInfo().filter((resource) => resource === "FSEventWrap").length;

describe("createAgentSession({ watch: true })", () => {
  it("restarts only the server whose args changed; the others keep their pid and finish their calls", async () => {
    const servers = { a: echoServer(), b: echoServer(), slow: slowCallServer() };
    await world.write(world.userFile, { mcpServers: servers });
    // Its edits are the user's own: what approvals ask about an edited server is tested in mcp-review-command.test.ts.
    const { session } = await world.start({
      watch: true,
      manager: { cache: world.cache, toolChanges: "allow" },
    });
    const pids = {
      a: await pidOf(session, "a"),
      b: await pidOf(session, "b"),
      slow: await pidOf(session, "slow"),
    };
    const slow = session.registry.list().find((tool) => tool.name === "mcp_slow_slow")!;
    const call = slow.execute("long", { ms: 1500, steps: 3 });

    const changed = nextChange(session);
    await world.write(world.userFile, { mcpServers: { ...servers, b: echoServer({ tools: 1 }) } });
    expect(await changed).toEqual({ added: [], removed: [], restarted: ["b"], unchanged: ["a", "slow"] });
    await toolsBecome(session, [
      "mcp_a_echo",
      "mcp_b_echo",
      "mcp_b_tool_0",
      "mcp_slow_echo",
      "mcp_slow_slow",
    ]);
    expect(await pidOf(session, "a")).toBe(pids.a);
    expect(await pidOf(session, "slow")).toBe(pids.slow);
    expect(await pidOf(session, "b")).not.toBe(pids.b);
    const answer = await call;
    expect(answer.isError).toBeFalsy();
  });

  it("adds, removes and renames servers; a removed file removes its servers", async () => {
    await world.write(world.userFile, { mcpServers: { keep: echoServer(), old: echoServer() } });
    const { session } = await world.start({ watch: true });
    const keep = await pidOf(session, "keep");
    const old = await pidOf(session, "old");

    let changed = nextChange(session);
    await world.write(world.userFile, { mcpServers: { keep: echoServer(), renamed: echoServer() } });
    expect(await changed).toMatchObject({ added: ["renamed"], removed: ["old"], restarted: [] });
    await toolsBecome(session, ["mcp_keep_echo", "mcp_renamed_echo"]);
    expect(isProcessAlive(old)).toBe(false);

    // A file in a folder that did not exist at start.
    const cursor = join(world.home, ".cursor", "mcp.json");
    changed = nextChange(session);
    await world.write(cursor, { mcpServers: { extra: echoServer() } });
    expect(await changed).toMatchObject({ added: ["extra"], unchanged: ["keep", "renamed"] });

    changed = nextChange(session);
    await rm(cursor);
    expect(await changed).toMatchObject({ removed: ["extra"] });
    await toolsBecome(session, ["mcp_keep_echo", "mcp_renamed_echo"]);
    expect(await pidOf(session, "keep")).toBe(keep);
  });

  it("keeps what runs through a broken save, says where once, and applies the file once it is fixed", async () => {
    await world.write(world.userFile, { mcpServers: { a: echoServer() } });
    const { session } = await world.start({ watch: true });
    const a = await pidOf(session, "a");
    await writeFile(world.userFile, '{ "mcpServers": { "a": ');
    await expect
      .poll(() => world.logger.lines.filter((line) => line.includes("invalid JSON")), { timeout: 10_000 })
      .toEqual([expect.stringMatching(/^warn: MCP config .*\.mcp-rt\/mcp\.json:1:\d+: invalid JSON/)]);
    // Saved again, still broken: not said again.
    const before = applied();
    await writeFile(world.userFile, '{ "mcpServers": { "a": ');
    await expect.poll(applied, { timeout: 10_000 }).toBeGreaterThan(before);
    expect(world.logger.lines.filter((line) => line.includes("invalid JSON"))).toHaveLength(1);
    expect(await pidOf(session, "a")).toBe(a);

    const changed = nextChange(session);
    await world.write(world.userFile, { mcpServers: { a: echoServer(), b: echoServer() } });
    expect(await changed).toMatchObject({ added: ["b"], unchanged: ["a"] });
    expect(await pidOf(session, "a")).toBe(a);
  });

  it("follows an editor's atomic save (write a temp file, rename it over the config)", async () => {
    await world.write(world.userFile, { mcpServers: { a: echoServer() } });
    const { session } = await world.start({ watch: true });
    const changed = nextChange(session);
    const temp = `${world.userFile}.swp`;
    await writeFile(temp, JSON.stringify({ mcpServers: { a: echoServer(), b: echoServer() } }));
    await rename(temp, world.userFile);
    expect(await changed).toMatchObject({ added: ["b"], unchanged: ["a"] });
    // The folder is still watched after the rename: a second atomic save is seen too.
    const again = nextChange(session);
    await writeFile(temp, JSON.stringify({ mcpServers: { b: echoServer() } }));
    await rename(temp, world.userFile);
    expect(await again).toMatchObject({ removed: ["a"], unchanged: ["b"] });
  });

  it("follows ~/.claude.json and a .vscode/mcp.json created after start", async () => {
    await world.write(world.userFile, { mcpServers: { a: echoServer() } });
    const { session } = await world.start({ watch: true });
    let changed = nextChange(session);
    await world.write(join(world.home, ".claude.json"), { mcpServers: { claude: echoServer() } });
    expect(await changed).toMatchObject({ added: ["claude"] });

    // A project-level file: its server waits for approval, and nothing runs it yet.
    const before = applied();
    await world.write(join(world.cwd, ".vscode", "mcp.json"), { servers: { code: echoServer() } });
    await expect.poll(applied, { timeout: 10_000 }).toBeGreaterThan(before);
    expect(session.mcpManager!.getConnectionStatus("code")).toBe("disconnected");
    const mcp = new MCPCommandController(session);
    expect((await mcp.handle("/mcp list")).text).toMatch(/\? code\s+needs approval/);
    expect((await mcp.handle("/mcp trust")).ok).toBe(true);
    changed = nextChange(session);
    await world.write(join(world.cwd, ".vscode", "mcp.json"), {
      servers: { code: echoServer(), more: echoServer() },
    });
    // The edit changed the project's trust hash: its servers wait for approval again, said once.
    expect(await changed).toMatchObject({ removed: ["code"] });
    await expect
      .poll(() => world.logger.lines.filter((line) => line.includes("wait for your approval again")), {
        timeout: 10_000,
      })
      .toEqual([expect.stringMatching(/code stopped/)]);
    expect((await mcp.handle("/mcp trust")).ok).toBe(true);
    await toolsBecome(session, ["mcp_a_echo", "mcp_claude_echo", "mcp_code_echo", "mcp_more_echo"]);
  });

  it("leaves no watcher behind after dispose", async () => {
    const before = fileHandles();
    await world.write(world.userFile, { mcpServers: { a: echoServer() } });
    const { session } = await world.start({ watch: true });
    expect(session.watchedFolders.length).toBeGreaterThan(0);
    expect(fileHandles()).toBeGreaterThan(before);
    await session.dispose();
    expect(session.watchedFolders).toEqual([]);
    await expect.poll(fileHandles, { timeout: 5000 }).toBe(before);
  });
});
