import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { echoServer } from "@mcp-rt/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentSession } from "../src/agent-session.js";
import { MCPCommandController } from "../src/mcp-command-controller.js";
import { MCP_COMMANDS } from "../src/mcp-commands/mcp-commands.js";
import { createWorld, pidOf, type World } from "./helpers.js";

const USAGE = Object.fromEntries(MCP_COMMANDS.map((command) => [command.name, command.usage]));

let world: World;
let session: AgentSession;
let mcp: MCPCommandController;
let alphaPid: number;
let fileBefore: string;

beforeAll(async () => {
  world = await createWorld();
  await world.write(world.userFile, { mcpServers: { alpha: echoServer() } });
  await world.write(join(world.home, ".cursor", "mcp.json"), { mcpServers: { beta: echoServer() } });
  session = (await world.start()).session;
  mcp = new MCPCommandController(session);
  alphaPid = await pidOf(session, "alpha");
  fileBefore = await readFile(world.userFile, "utf8");
});

afterAll(async () => {
  // Nothing that was refused changed a file or a connection.
  expect(await readFile(world.userFile, "utf8")).toBe(fileBefore);
  expect(await pidOf(session, "alpha")).toBe(alphaPid);
  await world.cleanup();
});

describe("/mcp bad input", () => {
  it("an unknown subcommand answers with the help", async () => {
    const result = await mcp.handle("/mcp frobnicate now");
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/Unknown subcommand "frobnicate"/);
    for (const usage of Object.values(USAGE)) expect(result.text).toContain(usage);
    expect(result.data).toMatchObject({
      error: { code: "USAGE", known: MCP_COMMANDS.map((command) => command.name) },
    });
  });

  it("no subcommand lists, help lists every usage", async () => {
    expect((await mcp.handle("/mcp")).text).toMatch(/● alpha/);
    const help = await mcp.handle("/mcp help");
    expect(help.ok).toBe(true);
    expect(help.text).toContain(USAGE.add);
  });

  it.each(["enable", "disable", "test", "explain", "remove"])(
    "%s of an unknown server lists the known ones",
    async (sub) => {
      const result = await mcp.handle(`/mcp ${sub} nope`);
      expect(result.ok).toBe(false);
      expect(result.text).toMatch(/No MCP server named "nope"\. Known servers: alpha, beta\./);
      expect(result.data).toMatchObject({ error: { code: "UNKNOWN_SERVER", known: ["alpha", "beta"] } });
    },
  );

  it.each([
    ["/mcp enable", "enable", /missing <name>/],
    ["/mcp disable alpha beta", "disable", /unexpected "beta"/],
    ["/mcp test --all", "test", /unknown option "--all"/],
    ["/mcp explain bad/name", "explain", /not a valid server name/],
    ["/mcp enable 'has space'", "enable", /not a valid server name/],
    ["/mcp list a everything", "list", /unexpected "everything"/],
    ["/mcp list --all", "list", /unknown option "--all"/],
    ["/mcp reload now", "reload", /unexpected "now"/],
    ["/mcp trust me", "trust", /unexpected "me"/],
    ["/mcp help me", "help", /unexpected "me"/],
    ["/mcp add x", "add", /give --url <url> or -- <command>/],
    ["/mcp add x --bogus -- node", "add", /Unknown option '--bogus'/],
    ["/mcp add x --url https://a.test --env A=1", "add", /--env applies to a command/],
    ["/mcp add x --scope global -- node", "add", /--scope must be "user" or "project"/],
    ["/mcp add -- node", "add", /missing <name>/],
    ["/mcp remove", "remove", /missing <name>/],
    ["/mcp remove alpha --scope nowhere", "remove", /--scope must be/],
    ["/mcp remove alpha --force", "remove", /Unknown option '--force'/],
  ])("%s answers with the usage of %s", async (line, sub, problem) => {
    const result = await mcp.handle(line);
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(problem);
    expect(result.text).toContain(`Usage: ${USAGE[sub]}`);
  });

  it("an unterminated quote is reported, not guessed at", async () => {
    const result = await mcp.handle(`/mcp add "x -- node`);
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/unterminated " quote/);
  });

  it("an invalid config or a taken name is refused with the reason", async () => {
    const invalid = await mcp.handle("/mcp add web --url ftp://files.test");
    expect(invalid.ok).toBe(false);
    expect(invalid.data).toMatchObject({ error: { code: "CONFIG_INVALID" } });
    expect(invalid.text).toMatch(/web/);
    const taken = await mcp.handle("/mcp add alpha -- node server.js");
    expect(taken.ok).toBe(false);
    expect(taken.text).toMatch(/already exists/);
  });

  it("a server of another client's file cannot be removed", async () => {
    const result = await mcp.handle("/mcp remove beta");
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/Cursor's ~\/\.cursor\/mcp\.json.*\/mcp disable beta/);
  });
});

describe("/mcp without MCP", () => {
  it("says MCP is off, and still helps", async () => {
    const { session: off } = await world.start({ enableMCP: false });
    const controller = new MCPCommandController(off);
    const list = await controller.handle("/mcp list");
    expect(list.ok).toBe(false);
    expect(list.text).toMatch(/MCP is off in this session/);
    expect((await controller.handle("/mcp help")).ok).toBe(true);
  });

  it("says the session was disposed", async () => {
    const other = await world.start({ manager: { cache: "memory:" } });
    await other.session.dispose();
    const result = await new MCPCommandController(other.session).handle("/mcp reload");
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/disposed/);
  });
});
