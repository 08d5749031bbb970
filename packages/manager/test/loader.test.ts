import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { childProcessesOf, echoServer, exitServer } from "@mcp-rt/testing";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type DiscoverAndLoadResult,
  discoverAndLoadMCPTools,
  discoverMCPServers,
  MCPManager,
  McpRtError,
} from "../src/index.js";
import { textOf } from "./helpers.js";

let root: string;
let project: string;
let home: string;
const loaded: DiscoverAndLoadResult[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-rt-manager-loader-"));
  project = join(root, "project");
  home = join(root, "home");
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
});

afterEach(async () => {
  await Promise.all(loaded.splice(0).map((result) => result.manager.disconnectAll()));
  await rm(root, { recursive: true, force: true });
});

afterAll(() => {
  expect(childProcessesOf(process.pid)).toEqual([]);
});

async function load(
  options: Parameters<typeof discoverAndLoadMCPTools>[1] = {},
): Promise<DiscoverAndLoadResult> {
  const result = await discoverAndLoadMCPTools(project, {
    ...options,
    // These loads are about the project's files, not about approving them.
    discovery: { homeDir: home, env: {}, trust: "all", ...options.discovery },
    manager: { cache: null, ...options.manager },
  });
  loaded.push(result);
  return result;
}

describe("discoverAndLoadMCPTools", () => {
  it("discovery throws: no tools and one synthetic .mcp.json error", async () => {
    const result = await load({
      discover: async () => {
        throw new Error("capability registry exploded");
      },
    });
    expect(result.tools).toEqual([]);
    expect(result.errors).toEqual([{ path: ".mcp.json", error: "capability registry exploded" }]);
    expect(result.problems).toMatchObject([
      { kind: "discovery", error: { message: "capability registry exploded" } },
    ]);
    expect(result.discovery).toBeUndefined();
    expect(result.manager).toBeInstanceOf(MCPManager);
  });

  it("loads a project's .mcp.json: tools with their origin, file issues with their file, server failures as mcp:<server>", async () => {
    const mcpJson = join(project, ".mcp.json");
    await writeFile(
      mcpJson,
      JSON.stringify({
        mcpServers: {
          echo: echoServer(),
          exits: exitServer(7),
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a config placeholder, not a template
          unset: { command: "node", args: ["${MCP_RT_SURELY_UNSET_VAR}"] },
          invalid: { command: 42 },
        },
      }),
    );
    await mkdir(join(project, ".cursor"));
    const cursorJson = join(project, ".cursor", "mcp.json");
    await writeFile(cursorJson, "{ not json");

    const result = await load();
    expect(result.tools.map(({ origin, tool }) => [origin, tool.name])).toEqual([
      ["mcp:echo via Claude Code", "mcp_echo_echo"],
    ]);
    expect(textOf(await result.tools[0]!.tool.execute("c", { message: "loaded" }))).toBe("loaded");

    const paths = result.errors.map((e) => e.path);
    expect(paths).toContain(cursorJson);
    expect(paths).toContain("mcp:exits");
    expect(paths.filter((p) => p === mcpJson).length).toBeGreaterThanOrEqual(2);
    expect(result.errors.find((e) => e.path === "mcp:exits")?.error).toMatch(/exits/);
    expect(
      result.errors
        .filter((e) => e.path === mcpJson)
        .map((e) => e.error)
        .join("\n"),
    ).toMatch(/MCP_RT_SURELY_UNSET_VAR/);
    // The same problems, with their kind and the error as raised.
    const exits = result.problems.find((problem) => problem.server === "exits");
    expect(exits?.kind).toBe("server");
    expect(McpRtError.isInstance(exits?.error)).toBe(true);
    expect(
      result.problems.filter((problem) => problem.kind === "file").map((problem) => problem.path),
    ).toContain(cursorJson);
    expect(result.manager.getServerStates().find((s) => s.name === "echo")?.source).toMatchObject({
      provider: "claude-code",
      path: mcpJson,
      level: "project",
    });
  });

  it("returns Exa API keys that discovery filtered", async () => {
    await writeFile(
      join(project, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          exa: { command: "npx", args: ["-y", "exa-mcp-server"], env: { EXA_API_KEY: "k-123" } },
        },
      }),
    );
    const result = await load({
      discovery: { reserve: ({ name }) => (name === "exa" ? { reason: "exa", keys: ["k-123"] } : undefined) },
    });
    expect(result.tools).toEqual([]);
    expect(result.discovery?.filtered).toMatchObject([{ name: "exa", reason: "exa", keys: ["k-123"] }]);
  });

  it("a cache URL that cannot be opened is reported and startup goes on without a cache", async () => {
    await writeFile(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { echo: echoServer() } }));
    const result = await load({ manager: { cache: "nosuchscheme://x" } });
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.path).toBe("nosuchscheme://x");
    expect(result.problems).toMatchObject([
      { kind: "cache", path: "nosuchscheme://x", error: { code: "CACHE_ERROR" } },
    ]);
    expect(result.tools.map(({ tool }) => tool.name)).toEqual(["mcp_echo_echo"]);
  });

  it("discoverMCPServers is the same loader", async () => {
    await writeFile(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { echo: echoServer() } }));
    expect(discoverMCPServers).toBe(discoverAndLoadMCPTools);
    const result = await discoverMCPServers(project, {
      discovery: { homeDir: home, env: {}, trust: "all" },
      manager: { cache: null },
    });
    loaded.push(result);
    expect(result.tools.map(({ origin }) => origin)).toEqual(["mcp:echo via Claude Code"]);
  });
});

describe("a cache the manager opens from a URL", () => {
  const hasRedis = spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
  let redis: ChildProcess | undefined;
  afterEach(async () => {
    if (redis && redis.exitCode === null) {
      redis.kill("SIGKILL");
      await once(redis, "exit");
    }
  });

  /** Clients connected to the Redis on `port`, this query's own included. */
  const clients = (port: number) =>
    Number(
      /connected_clients:(\d+)/.exec(
        execFileSync("redis-cli", ["-p", String(port), "info", "clients"], { encoding: "utf8" }),
      )?.[1],
    );

  it.skipIf(!hasRedis)(
    "belongs to the manager: disposing of it closes the cache's Redis connection",
    async () => {
      const probe = createServer().listen(0, "127.0.0.1");
      await once(probe, "listening");
      const port = (probe.address() as { port: number }).port;
      probe.close();
      redis = spawn("redis-server", [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
      ]);
      const output: string[] = [];
      redis.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
      await expect.poll(() => output.join(""), { timeout: 10_000 }).toContain("Ready to accept connections");

      await writeFile(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { echo: echoServer() } }));
      // The cache makes its key in ~/.mcp-rt: the test's home, not the real one.
      vi.stubEnv("HOME", home);
      const result = await discoverAndLoadMCPTools(project, {
        discovery: { homeDir: home, env: {}, trust: "all" },
        manager: { cache: `redis://127.0.0.1:${port}` },
      }).finally(() => vi.unstubAllEnvs());
      expect(result.errors).toEqual([]);
      expect(clients(port)).toBe(2);
      await result.manager.close();
      // Left open, it would keep the agent's process alive after the session ended.
      await expect.poll(() => clients(port), { timeout: 5000 }).toBe(1);
    },
  );
});
