import { echoServer } from "@mcp-rt/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentSession } from "../src/agent-session.js";
import { MCPCommandController } from "../src/mcp-command-controller.js";
import { MCP_COMMANDS } from "../src/mcp-commands/mcp-commands.js";
import { createWorld, type World } from "./helpers.js";

let world: World;
let session: AgentSession;
let mcp: MCPCommandController;

beforeAll(async () => {
  world = await createWorld();
  await world.write(world.userFile, { mcpServers: { alpha: echoServer() } });
  session = (await world.start()).session;
  mcp = new MCPCommandController(session);
});

afterAll(() => world.cleanup());

/** The usage a refused line answered with, if it was refused as bad input. */
function usageOf(result: { data?: unknown }): unknown {
  return (result.data as { error?: { code?: string; usage?: unknown } } | undefined)?.error?.usage;
}

describe("the /mcp command table", () => {
  it("has each name once, with a usage line that starts with it and a description", () => {
    const names = MCP_COMMANDS.map((command) => command.name);
    expect(new Set(names).size).toBe(names.length);
    for (const command of MCP_COMMANDS) {
      expect(command.usage).toMatch(new RegExp(`^/(mcp )?${command.name}\\b`));
      expect(command.description.length).toBeGreaterThan(0);
    }
  });

  it("the help lists exactly the table, in its order", async () => {
    const help = await mcp.handle("/mcp help");
    expect(help.ok).toBe(true);
    const usages = help.text
      .split("\n")
      .filter((line) => /^ {2}\//.test(line))
      .map((line) => line.trim());
    expect(usages).toEqual(MCP_COMMANDS.map((command) => command.usage));
    expect(help.data).toEqual({
      usage: Object.fromEntries(MCP_COMMANDS.map((command) => [command.name, command.usage])),
    });
  });

  it.each(MCP_COMMANDS.map((command) => [command.name, command] as const))(
    "/mcp %s reaches its own entry: bad input answers with its usage",
    async (name, command) => {
      // Too many words, or none: each command refuses one of the two with its own usage line.
      const answers = [await mcp.handle(`/mcp ${name} x y z`), await mcp.handle(`/mcp ${name}`)];
      const refused = answers.map(usageOf).filter((usage) => usage !== undefined);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.every((usage) => usage === command.usage)).toBe(true);
    },
  );

  it("an unknown subcommand is an error naming every known one", async () => {
    const result = await mcp.handle("/mcp explian alpha");
    expect(result.ok).toBe(false);
    expect(result.data).toMatchObject({
      error: {
        code: "USAGE",
        message: 'unknown subcommand "explian"',
        known: MCP_COMMANDS.map((c) => c.name),
      },
    });
    // A near miss is not run as some other command.
    expect(result.text).not.toMatch(/Server "alpha"/);
  });
});
