import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { echoServer, isProcessAlive } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MCPCommandController } from "../src/mcp-command-controller.js";
import { activeMCPNames, createWorld, nextChange, pidOf, type World } from "./helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.cleanup();
});

describe("a session over the Antigravity CLI's and IDE's files", () => {
  it("watches both before they exist, and turns their servers off and on without editing them", async () => {
    const cliFile = join(world.home, ".gemini", "config", "mcp_config.json");
    const ideFile = join(world.home, ".gemini", "antigravity", "mcp_config.json");
    const { session } = await world.start({ watch: true });
    const mcp = new MCPCommandController(session);

    // `~/.gemini` does not exist yet: the session still sees the file appear.
    const changed = nextChange(session);
    const { command, args } = echoServer();
    const written = JSON.stringify(
      { mcpServers: { agy: { command, args, timeoutSeconds: 30 } }, agentSettings: { theme: "x" } },
      null,
      2,
    );
    await world.write(cliFile, written);
    expect(await changed).toMatchObject({ added: ["agy"] });
    await expect.poll(() => activeMCPNames(session), { timeout: 10_000 }).toEqual(["mcp_agy_echo"]);

    // A disabled entry starts nothing, so the reload reports no change: ask /mcp list.
    await world.write(ideFile, { mcpServers: { ide: { command, args, disabled: true } } });
    await expect
      .poll(async () => (await mcp.handle("/mcp list")).text, { timeout: 10_000 })
      .toMatch(/– ide\s+disabled/);

    // Off through mcp-rt's own disabledServers; Antigravity's file keeps every byte.
    const pid = await pidOf(session, "agy");
    const off = await mcp.handle("/mcp disable agy");
    expect(off.ok, off.text).toBe(true);
    expect(isProcessAlive(pid)).toBe(false);
    expect((await world.read(world.userFile)).disabledServers).toEqual(["agy"]);
    expect(await readFile(cliFile, "utf8")).toBe(written);
    const on = await mcp.handle("/mcp enable agy");
    expect(on.ok, on.text).toBe(true);
    expect(on.text).toMatch(/● agy: connected/);

    // `disabled: true` is Antigravity's own switch: mcp-rt does not flip it.
    const ide = await mcp.handle("/mcp enable ide");
    expect(ide.ok).toBe(false);
    expect(ide.text).toMatch(/~\/\.gemini\/antigravity\/mcp_config\.json \(Antigravity\)/);
  });
});
