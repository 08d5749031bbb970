// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in fixture configs are part of what is tested
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { echoServer, exitServer, isProcessAlive, slowInitServer } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MCPCommandController } from "../src/mcp-command-controller.js";
import type { MCPServerList } from "../src/mcp-server-list.js";
import { activeMCPNames, createWorld, pidOf, type World } from "./helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(async () => {
  await world.cleanup();
});

const mode = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

describe("/mcp enable and disable", () => {
  it("toggle one server repeatedly while the other keeps its process", async () => {
    const cursorFile = join(world.home, ".cursor", "mcp.json");
    await world.write(world.userFile, { mcpServers: { alpha: echoServer() }, theme: "dark" });
    await world.write(cursorFile, { mcpServers: { beta: echoServer() } });
    const { session } = await world.start();
    const mcp = new MCPCommandController(session);
    const betaPid = await pidOf(session, "beta");
    const alphaPids = new Set<number>();

    for (let round = 0; round < 3; round++) {
      const alphaPid = await pidOf(session, "alpha");
      alphaPids.add(alphaPid);
      const off = await mcp.handle("/mcp disable alpha");
      expect(off.ok, off.text).toBe(true);
      expect(isProcessAlive(alphaPid)).toBe(false);
      expect(activeMCPNames(session)).toEqual(["mcp_beta_echo"]);
      expect(await world.read(world.userFile)).toEqual({
        mcpServers: { alpha: { ...echoServer(), enabled: false } },
        theme: "dark",
      });
      const on = await mcp.handle("/mcp enable alpha");
      expect(on.ok, on.text).toBe(true);
      expect(on.text).toMatch(/● alpha: connected, 1 tool/);
      expect(activeMCPNames(session).sort()).toEqual(["mcp_alpha_echo", "mcp_beta_echo"]);
      expect(await pidOf(session, "beta")).toBe(betaPid);
    }
    expect(alphaPids.size).toBe(3);
    expect(isProcessAlive(betaPid)).toBe(true);

    // A server from another client's file is turned off through disabledServers; that file is not touched.
    const cursorBefore = await world.read(cursorFile);
    const off = await mcp.handle("/mcp disable beta");
    expect(off.ok, off.text).toBe(true);
    expect(isProcessAlive(betaPid)).toBe(false);
    expect((await world.read(world.userFile)).disabledServers).toEqual(["beta"]);
    expect(await world.read(cursorFile)).toEqual(cursorBefore);
    expect((await mcp.handle("/mcp disable beta")).text).toMatch(/already disabled/);
    const list = await mcp.handle("/mcp list");
    expect(list.text).toMatch(/– beta\s+disabled/);
    const on = await mcp.handle("/mcp enable beta");
    expect(on.ok, on.text).toBe(true);
    expect((await world.read(world.userFile)).disabledServers).toEqual([]);
    expect(activeMCPNames(session).sort()).toEqual(["mcp_alpha_echo", "mcp_beta_echo"]);
    expect(await mode(world.userFile)).toBe(0o600);
  });

  it("clears enabled:false on a native entry, but never edits another client's file", async () => {
    const codexFile = join(world.home, ".codex", "config.toml");
    const fixture = echoServer();
    const toml = `[mcp_servers.gamma]\ncommand = ${JSON.stringify(fixture.command)}\nargs = ${JSON.stringify(fixture.args)}\nenabled = false\n`;
    await world.write(codexFile, toml);
    await world.write(world.userFile, { mcpServers: { delta: { ...fixture, enabled: false } } });
    const { session } = await world.start();
    const mcp = new MCPCommandController(session);

    const delta = await mcp.handle("enable delta");
    expect(delta.ok, delta.text).toBe(true);
    expect(delta.text).toMatch(/● delta: connected/);
    expect(await world.read(world.userFile)).toEqual({ mcpServers: { delta: fixture } });

    const gamma = await mcp.handle("/mcp enable gamma");
    expect(gamma.ok).toBe(false);
    expect(gamma.text).toMatch(/still disabled by its own config in ~\/\.codex\/config\.toml \(Codex\)/);
    expect(await readFile(codexFile, "utf8")).toBe(toml);
    expect(activeMCPNames(session)).toEqual(["mcp_delta_echo"]);
  });
});

describe("/mcp commands at once", () => {
  it("run one after another, in order", async () => {
    await world.write(world.userFile, { mcpServers: { alpha: echoServer() } });
    const { session } = await world.start();
    const mcp = new MCPCommandController(session);
    const results = await Promise.all([
      mcp.handle("/mcp disable alpha"),
      mcp.handle("/mcp enable alpha"),
      mcp.handle("/mcp disable alpha"),
      mcp.handle("/mcp enable alpha"),
    ]);
    expect(results.map((result) => result.ok)).toEqual([true, true, true, true]);
    expect(results[3]!.text).toMatch(/● alpha: connected/);
    expect(await world.read(world.userFile)).toEqual({ mcpServers: { alpha: echoServer() } });
    expect(activeMCPNames(session)).toEqual(["mcp_alpha_echo"]);
  });
});

describe("/mcp add and remove", () => {
  it("round-trip a real file: modes, unknown fields, live tools", async () => {
    await world.write(world.userFile, { $schema: "x", mcpServers: { keep: { command: "nope", custom: 1 } } });
    const { session } = await world.start({ discovery: { trust: "all" } });
    const mcp = new MCPCommandController(session);
    const fixture = echoServer({ tools: 1 });
    const line = `/mcp add fresh --env GREETING=hi -- ${fixture.command} ${fixture.args!.map((arg) => `'${arg}'`).join(" ")}`;
    const added = await mcp.handle(line);
    expect(added.ok, added.text).toBe(true);
    expect(added.text).toMatch(/● fresh: connected, 2 tools/);
    expect(await world.read(world.userFile)).toEqual({
      $schema: "x",
      mcpServers: {
        keep: { command: "nope", custom: 1 },
        fresh: { command: fixture.command, args: fixture.args, env: { GREETING: "hi" } },
      },
    });
    // The file existed with mode 0644; mcp-rt's rewrite is 0600.
    expect(await mode(world.userFile)).toBe(0o600);
    expect(activeMCPNames(session)).toEqual(["mcp_fresh_echo", "mcp_fresh_tool_0"]);
    const pid = await pidOf(session, "fresh");

    const again = await mcp.handle(line);
    expect(again.ok).toBe(false);
    expect(again.text).toMatch(/already exists/);

    const removed = await mcp.handle("/mcp remove fresh");
    expect(removed.ok, removed.text).toBe(true);
    expect(isProcessAlive(pid)).toBe(false);
    expect(activeMCPNames(session)).toEqual([]);
    expect(await world.read(world.userFile)).toEqual({
      $schema: "x",
      mcpServers: { keep: { command: "nope", custom: 1 } },
    });
  });

  it("adds a remote server to the project file and refuses to remove another client's server", async () => {
    await world.write(join(world.home, ".cursor", "mcp.json"), { mcpServers: { theirs: echoServer() } });
    const { session } = await world.start({
      discovery: { trust: "all" },
      manager: { maxStartupWaitMs: 100 },
    });
    const mcp = new MCPCommandController(session);
    const added = await mcp.handle(
      "/mcp add docs --scope project --url http://127.0.0.1:9/mcp --transport http --header X-Team=core",
    );
    expect(added.ok, added.text).toBe(true);
    expect(await world.read(world.projectFile)).toEqual({
      mcpServers: { docs: { url: "http://127.0.0.1:9/mcp", type: "http", headers: { "X-Team": "core" } } },
    });
    expect(await mode(world.projectFile)).toBe(0o600);
    expect(await mode(join(world.cwd, ".mcp-rt"))).toBe(0o700);

    const secret = await mcp.handle(
      "/mcp add keyed --url http://127.0.0.1:9/mcp --header Authorization=Bearer_s3cret-add-1 --header X-Team=core",
    );
    expect(secret.ok, secret.text).toBe(true);
    expect(JSON.stringify(secret.data)).not.toContain("s3cret-add-1");
    expect(secret.text).not.toContain("s3cret-add-1");
    expect(secret.data).toMatchObject({ config: { headers: { Authorization: "***", "X-Team": "***" } } });
    expect(await world.read(world.userFile)).toMatchObject({
      mcpServers: { keyed: { headers: { Authorization: "Bearer_s3cret-add-1" } } },
    });

    const refused = await mcp.handle("/mcp remove theirs");
    expect(refused.ok).toBe(false);
    expect(refused.text).toMatch(/never edits other clients' files.*\/mcp disable theirs/);
    const wrongScope = await mcp.handle("/mcp remove docs --scope user");
    expect(wrongScope.ok).toBe(false);
    expect((await mcp.handle("/mcp remove docs")).ok).toBe(true);
    expect(await world.read(world.projectFile)).toEqual({ mcpServers: {} });
  });
});

describe("/mcp reload", () => {
  it("picks up an edited config file", async () => {
    await world.write(world.userFile, { mcpServers: { alpha: echoServer() } });
    const { session } = await world.start();
    const mcp = new MCPCommandController(session);
    expect(activeMCPNames(session)).toEqual(["mcp_alpha_echo"]);
    await world.write(world.userFile, { mcpServers: { beta: echoServer({ tools: 1 }) } });
    const reloaded = await mcp.handle("/mcp reload");
    expect(reloaded.ok, reloaded.text).toBe(true);
    expect(reloaded.data).toMatchObject({ connectedServers: ["beta"] });
    expect(activeMCPNames(session)).toEqual(["mcp_beta_echo", "mcp_beta_tool_0"]);
  });
});

describe("/mcp list, test and explain", () => {
  it("list shows each server's state grouped by file, with errors and shadowed entries", async () => {
    await world.write(world.userFile, {
      mcpServers: { alpha: echoServer(), dies: exitServer(4), off: { ...echoServer(), enabled: false } },
    });
    await world.write(join(world.home, ".cursor", "mcp.json"), { mcpServers: { alpha: echoServer() } });
    const { session } = await world.start();
    const mcp = new MCPCommandController(session);
    const { ok, text, data } = await mcp.handle("/mcp list");
    expect(ok).toBe(true);
    expect(text).toMatch(/^mcp-rt · ~\/\.mcp-rt\/mcp\.json \(user\)$/m);
    expect(text).toMatch(/● alpha\s+connected · 1 tool · \d+ ms · 2025-11-25 \(legacy\)/);
    expect(text).toMatch(/✗ dies\s+failed/);
    // One line: the cause, and where its stderr is.
    expect(text).toMatch(
      /\n {6}last error: INIT_FAILED: [^\n]*stderr: \[fixture [^\]]+\] exiting at start with code 4 \(--exit-code\)[^\n]* \(its stderr: \/mcp list dies\)\n/,
    );
    expect(text).not.toMatch(/stderr:\n/);
    expect(text).toMatch(/– off\s+disabled/);
    expect(text).toMatch(/^Cursor · ~\/\.cursor\/mcp\.json \(user\)$/m);
    expect(text).toMatch(/– alpha\s+shadowed · shadowed by mcp-rt/);
    expect(data).toMatchObject({ groups: expect.any(Array), fileErrors: [] });

    const one = await mcp.handle("/mcp list dies");
    expect(one.text).toMatch(
      /^mcp-rt · ~\/\.mcp-rt\/mcp\.json \(user\)\n {2}✗ dies\s+failed\n {6}last error: /,
    );
    expect(one.text).toMatch(
      /\n {6}stderr:\n {8}\[fixture [^\]]+\] exiting at start with code 4 \(--exit-code\)\n/,
    );
    expect(one.text).not.toMatch(/alpha|its stderr: /);
    expect((await mcp.handle("/mcp list nope")).text).toMatch(/nope/);
  });

  it("list says why startup did not wait for a server, at the start that ran out and at the next", async () => {
    await world.write(world.userFile, { mcpServers: { slow: slowInitServer(4000) } });
    const manager = { maxStartupWaitMs: 500, startupTimeoutMs: 50 };
    const first = await world.start({ manager });
    const ranOut = await new MCPCommandController(first.session).handle("/mcp list");
    expect(ranOut.text).toMatch(
      /◌ slow\s+connecting · 0 tools · not waited for: did not come up within 500 ms; its tools follow when it is up$/m,
    );
    // The run ends before the server is up.
    await first.session.dispose();

    const second = await world.start({ manager });
    const { text, data } = await new MCPCommandController(second.session).handle("/mcp list");
    expect(text).toMatch(
      /◌ slow\s+connecting · 0 tools · not waited for: did not come up within 500 ms at the last start; its tools follow when it is up$/m,
    );
    const slow = (data as MCPServerList).groups
      .flatMap((group) => group.entries)
      .find((e) => e.name === "slow");
    expect(slow?.notWaitedFor).toEqual({ reason: "missed-before", waitMs: 500 });
  });

  it("test connects once, reports the server and closes it", async () => {
    await world.write(world.userFile, {
      mcpServers: { alpha: echoServer({ name: "alpha-server", tools: 1 }) },
    });
    const { session } = await world.start();
    const mcp = new MCPCommandController(session);
    const before = session.mcpManager!.getServerStates();
    const result = await mcp.handle("/mcp test alpha");
    expect(result.ok, result.text).toBe(true);
    expect(result.data).toMatchObject({
      serverName: "alpha-server",
      protocolVersion: expect.any(String),
      toolCount: 2,
      tools: ["echo", "tool_0"],
    });
    expect(result.text).toMatch(/alpha-server/);
    expect(result.text).toMatch(
      /, protocol 2025-11-25 \(legacy\), \d+ ms\nera: the server answered server\/discover with -32601/,
    );
    expect(result.text).toMatch(/Connection closed/);
    expect(session.mcpManager!.getServerStates()).toEqual(before);
  });

  it("test reports a failing server with its stderr", async () => {
    await world.write(world.userFile, { mcpServers: { dies: exitServer(5) } });
    const { session } = await world.start();
    const result = await new MCPCommandController(session).handle("/mcp test dies");
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/dies failed the test/);
    expect(result.text).toMatch(
      /\n {2}stderr:\n {4}\[fixture [^\]]+\] exiting at start with code 5 \(--exit-code\)$/,
    );
  });

  it("explain uses config's explanation and hides secrets", async () => {
    await world.write(world.userFile, {
      mcpServers: { alpha: { ...echoServer(), env: { API_TOKEN: "s3cret-value" } } },
    });
    const { session } = await world.start();
    const result = await new MCPCommandController(session).handle("/mcp explain alpha");
    expect(result.ok, result.text).toBe(true);
    expect(result.text).toMatch(/Server "alpha": active/);
    expect(result.text).not.toContain("s3cret-value");
    expect(result.text).toMatch(/Now: ● alpha: connected/);
    expect(result.text).toMatch(
      /\nProtocol: 2025-11-25 \(legacy\): the server answered server\/discover with -32601 \(Method not found\), so it speaks the legacy era$/,
    );
    expect(result.text).toMatch(/protocol: auto \(asks the server with server\/discover/);
    expect(result.data).toMatchObject({ name: "alpha", status: "active" });
  });

  it("explain shows args that came from a variable as the variable (mcp-remote and docker forms)", async () => {
    const token = "tok-session-secret-1";
    const literal = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
    world.env.TOKEN = token;
    const missing = "mcp-rt-no-such-command";
    await world.write(world.userFile, {
      mcpServers: {
        remote: {
          command: missing,
          args: ["mcp-remote", "https://h.test/mcp", "--header", "Authorization: Bearer ${TOKEN}"],
        },
        docker: {
          command: missing,
          args: ["run", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN=${TOKEN}", "-e", `PAT=${literal}`],
        },
      },
    });
    const { session } = await world.start();
    const mcp = new MCPCommandController(session);
    const remote = await mcp.handle("/mcp explain remote");
    const docker = await mcp.handle("/mcp explain docker");
    for (const result of [remote, docker]) {
      expect(result.ok, result.text).toBe(true);
      expect(result.text + JSON.stringify(result.data)).not.toContain(token);
      expect(result.text + JSON.stringify(result.data)).not.toContain(literal);
    }
    expect(remote.text).toContain('"Authorization: Bearer ${TOKEN}"');
    expect(docker.text).toContain('"GITHUB_PERSONAL_ACCESS_TOKEN=${TOKEN}"');
    expect(docker.text).toContain('"PAT=***"');
  });
});
