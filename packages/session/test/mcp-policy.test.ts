import { join } from "node:path";
import { echoServer, serverProcessesOf, waitForProcessExit } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MCPCommandController } from "../src/mcp-command-controller.js";
import { activeMCPNames, createWorld, nextChange, pidOf, type World } from "./helpers.js";

let world: World;
let policyFile: string;
beforeEach(async () => {
  world = await createWorld();
  // An admin's policy outside the project, named the way a container names it.
  policyFile = join(world.root, "admin", "policy.json");
  world.env.MCP_RT_POLICY = policyFile;
});
afterEach(async () => {
  await world.cleanup();
});

const DENY_GONE = { deniedMcpServers: [{ serverName: "gone" }] };
const RULE = 'deniedMcpServers: { "serverName": "gone" }';

describe("a session under an admin policy", () => {
  it("never starts what the policy forbids; /mcp list, explain, enable and test name the rule and the file", async () => {
    await world.write(policyFile, { deniedMcpServers: [{ serverName: "gone" }, { serverName: "theirs" }] });
    await world.write(world.userFile, {
      mcpServers: { mine: echoServer(), gone: echoServer({ tools: 1 }) },
      disabledServers: ["gone"],
    });
    // A project server, the project trusted on purpose: trust does not loosen a policy.
    await world.write(join(world.cwd, ".mcp.json"), { mcpServers: { theirs: echoServer({ tools: 2 }) } });
    const { session } = await world.start({ discovery: { trust: "all" } });
    const mcp = new MCPCommandController(session);
    expect(activeMCPNames(session)).toEqual(["mcp_mine_echo"]);
    expect(serverProcessesOf(process.pid)).toHaveLength(1);
    const theirsRule = 'deniedMcpServers: { "serverName": "theirs" }';
    expect((await mcp.handle("/mcp list")).text).toMatch(
      new RegExp(
        `⛔ theirs\\s.*blocked by mcp-rt's policy \\(${escapeRegExp(policyFile)}\\): ${escapeRegExp(theirsRule)}`,
      ),
    );
    const tested = await mcp.handle("/mcp test theirs");
    expect(tested.ok).toBe(false);
    expect(tested.text).toContain(`forbidden by mcp-rt's policy (${policyFile}): ${theirsRule}`);

    // Turning it on in mcp-rt's own file changes nothing the policy says.
    const enabled = await mcp.handle("/mcp enable gone");
    expect(enabled.ok).toBe(false);
    expect(enabled.text).toContain(`⛔ gone is forbidden by mcp-rt's policy (${policyFile}): ${RULE}`);
    expect((await mcp.handle("/mcp list")).text).toMatch(/⛔ gone\s.*blocked by mcp-rt's policy/);
    const explained = await mcp.handle("/mcp explain gone");
    expect(explained.text).toContain(`forbidden by mcp-rt's policy (${policyFile}): ${RULE}`);
    const reload = await mcp.handle("/mcp reload");
    expect(reload.text).toContain(
      "⛔ forbidden by a policy: gone, theirs (/mcp explain <name> names the rule)",
    );
    expect(reload.data).toMatchObject({ blocked: ["gone", "theirs"] });
    expect(activeMCPNames(session)).toEqual(["mcp_mine_echo"]);
    expect(serverProcessesOf(process.pid)).toHaveLength(1);
  });

  it("stops a running server once a policy that forbids it is written, and starts it once it is lifted", async () => {
    await world.write(policyFile, {});
    await world.write(world.userFile, { mcpServers: { mine: echoServer(), gone: echoServer({ tools: 1 }) } });
    const { session } = await world.start({ watch: true });
    const pid = await pidOf(session, "gone");

    let changed = nextChange(session);
    await world.write(policyFile, DENY_GONE);
    expect(await changed).toMatchObject({ removed: ["gone"], unchanged: ["mine"] });
    // Its process is stopped in the background; the manager forgot it at once.
    expect(await waitForProcessExit(pid, 20_000)).toBe(true);
    expect(activeMCPNames(session)).toEqual(["mcp_mine_echo"]);
    // Said once the reload is applied, which the change event comes before.
    await expect
      .poll(() => world.logger.lines, { timeout: 10_000 })
      .toContain(`warn: MCP server "gone" stopped: forbidden by mcp-rt's policy (${policyFile}): ${RULE}`);

    changed = nextChange(session);
    await world.write(policyFile, { deniedMcpServers: [] });
    expect(await changed).toMatchObject({ added: ["gone"] });
    await pidOf(session, "gone");
  });

  it("blocks every server while the policy file is malformed, and says which file to fix", async () => {
    await world.write(policyFile, '{ "deniedMcpServers": [');
    await world.write(world.userFile, { mcpServers: { mine: echoServer() } });
    const { session, mcpErrors } = await world.start();
    const mcp = new MCPCommandController(session);
    expect(activeMCPNames(session)).toEqual([]);
    expect(serverProcessesOf(process.pid)).toHaveLength(0);
    expect(mcpErrors.map((error) => error.error).join("\n")).toContain(
      `${policyFile}: line 1, column 24: invalid JSON`,
    );
    expect((await mcp.handle("/mcp list")).text).toMatch(/⛔ mine\s.*the policy file cannot be used/);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}
