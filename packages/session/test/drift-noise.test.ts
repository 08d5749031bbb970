import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MCPManager, MCPToolApprovals, type MCPToolsHeld } from "@mcp-rt/manager";
import { driftCorpus, fixtureServer } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { heldNotice } from "../src/index.js";
import { createWorld, type World } from "./helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.cleanup();
});

describe("the noise of drift: @playwright/mcp 0.0.83 → 0.0.86", () => {
  it("asks about the 6 of 25 tools that changed, one readable line per difference", async () => {
    const { before, after } = driftCorpus();
    const definitions = join(world.root, "playwright.json");
    const config = fixtureServer({ definitions, name: before.serverInfo.name, quiet: true });
    const approvals = (): MCPToolApprovals => new MCPToolApprovals({ folder: join(world.home, "approvals") });
    const start = async (): Promise<MCPManager> => {
      const manager = new MCPManager(world.cwd, { cache: null, approvals: approvals(), toolChanges: "ask" });
      await manager.connectServers({ playwright: config });
      return manager;
    };
    await writeFile(definitions, JSON.stringify({ tools: before.tools }));
    await (await start()).close();
    // The server upgrades itself (npx @playwright/mcp@latest): same command, new definitions.
    await writeFile(definitions, JSON.stringify({ tools: after.tools }));
    const manager = new MCPManager(world.cwd, { cache: null, approvals: approvals(), toolChanges: "ask" });
    world.sessions.push({ dispose: () => manager.close() } as never);
    const told = new Promise<MCPToolsHeld>((resolve) => manager.on("tools:held", resolve));
    await manager.connectServers({ playwright: config });
    const event = await told;
    expect(event.held.map((tool) => tool.name)).toEqual([
      "browser_close",
      "browser_find",
      "browser_network_requests",
      "browser_take_screenshot",
      "browser_tabs",
      "browser_wait_for",
    ]);
    // None of it is poisoning: every hold is a change, and nothing else was found.
    expect(event.held.every((tool) => tool.reasons.join() === "changed" && tool.findings.length === 0)).toBe(
      true,
    );
    // The other 19 tools stay with the model.
    expect(manager.getTools().filter((tool) => tool.definition.name.startsWith("browser_"))).toHaveLength(19);
    const notice = heldNotice(event);
    const lines = notice.split("\n");
    // The head, one line per tool, seven differences, and how to decide.
    expect(lines).toHaveLength(1 + 6 + 7 + 1);
    expect(notice).toContain("~ description: Close the [-page-] {+browser and all open tabs.+}");
    expect(notice).toContain(
      '+ inputSchema.properties.maxResults: {"description":"Maximum number of matching items',
    );
    // No wall of JSON: a value is cut at 240 characters, a changed text shows its changed words among a few kept ones.
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(400);
  });
});
