import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, createSandbox, runAgent, type Sandbox, waitForNoProcesses } from "./agent-process.js";

const moduleLog = fileURLToPath(new URL("fixtures/module-log.mjs", import.meta.url));
const dist = fileURLToPath(new URL("../dist/", import.meta.url));

/**
 * A module of the MCP SDK: v2's `@modelcontextprotocol/client` and `core` (and `server`), or
 * v1's `@modelcontextprotocol/sdk`, as a specifier or a path (pnpm's `@modelcontextprotocol+client@…` too).
 */
const isSdkModule = (specifier: string): boolean =>
  /@modelcontextprotocol[/+](sdk|client|core|core-internal|server)([/@]|$)/.test(specifier);

/** The MCP SDK, its transports and schemas, and the client package that wraps them. */
const isClientModule = (specifier: string): boolean =>
  isSdkModule(specifier) ||
  specifier === "@mcp-rt/client" ||
  /(^|\/)packages\/client\/dist\/index\.js$/.test(specifier);

/** zod's classic API, which only the SDK uses: mcp-rt's own schemas are zod/mini. */
const isZodClassic = (specifier: string): boolean => /(^|\/)zod\/v4\/classic\//.test(specifier);

/**
 * The modules a loaded file stands for: the source modules a file of the bundle holds (the
 * build lists them in dist/bundle-modules.json), else the specifier or URL itself.
 */
function sourceModules(loaded: string[]): string[] {
  const bundle: Record<string, string[]> = JSON.parse(
    readFileSync(join(dist, "bundle-modules.json"), "utf8"),
  );
  return loaded.flatMap((url) => {
    const file = url.startsWith("file:") ? relative(dist, fileURLToPath(url)) : undefined;
    return (file !== undefined && bundle[file]) || [url];
  });
}

describe("the start path of a warm start", () => {
  let sandbox: Sandbox;

  beforeAll(async () => {
    assertBuilt();
    sandbox = await createSandbox();
  });
  afterAll(async () => {
    expect(await waitForNoProcesses(sandbox.marker)).toEqual([]);
    await sandbox.cleanup();
  });

  it("hands the cached tools over before any module of the MCP SDK or zod's classic API is loaded; they load after", async () => {
    // The first start fills the cache. It calls the slow server's tool, so that it waits for that
    // server (on a busy machine it may not be up within the agent's bound of a cold start) and
    // every server's tools are cached before the warm start.
    const first = await runAgent(
      ["--demo", "--json", "--exec", '/call mcp_slow_echo {"message":"priming"}'],
      sandbox,
    );
    expect(first.code).toBe(0);
    const readyOf = (stdout: string) =>
      JSON.parse(stdout.split("\n").find((line) => line.includes('"event":"ready"'))!) as {
        toolCount: number;
      };
    // The demo's four servers: everything, filesystem, memory and the slow one.
    const toolCount = 40;

    const log = join(sandbox.root, "modules");
    const call = '/call mcp_everything_echo {"message":"after the handoff"}';
    const run = await runAgent(["--demo", "--json", "--exec", call], sandbox, {
      nodeArgs: ["--import", moduleLog],
      env: { MODULE_LOG_FILE: log },
    });
    expect(run.code).toBe(0);
    // Every tool of the demo is in hand, from the cache.
    expect(readyOf(run.stdout).toolCount).toBeGreaterThanOrEqual(toolCount);

    const loadedAtReady: string[] = JSON.parse(readFileSync(`${log}.ready.json`, "utf8"));
    const atReady = sourceModules(loadedAtReady);
    const atExit = sourceModules(JSON.parse(readFileSync(`${log}.exit.json`, "utf8")));
    // The bin is the bundle: the start path is in its main file, not in ES modules of its own.
    expect(loadedAtReady.filter((url) => url.includes("/packages/manager/dist/"))).toEqual([]);
    // The start path itself was recorded: the session, the manager and the cache.
    expect(atReady.some((id) => id.includes("packages/manager/dist/mcp-manager.js"))).toBe(true);
    expect(atReady.some((id) => id.includes("packages/cache/dist/mcp-tool-cache.js"))).toBe(true);
    expect(atReady.filter(isClientModule)).toEqual([]);
    // zod is there, as zod/mini (the config and cache schemas); its classic API comes with the SDK.
    expect(atReady.some((id) => /(^|\/)zod\/v4\/mini\//.test(id))).toBe(true);
    expect(atReady.filter(isZodClassic)).toEqual([]);
    // node:readline, which only a terminal needs, waits for it too (fs/promises loads some of its internals).
    const builtinsAtReady: string[] = JSON.parse(readFileSync(`${log}.builtins.json`, "utf8"));
    expect(builtinsAtReady).toContain("fs");
    const readline = /^readline(\/|$)|^internal\/readline\/promises$/;
    expect(builtinsAtReady.filter((id) => readline.test(id))).toEqual([]);
    // Nor perf_hooks, which the global `performance` loads: the start measures with `monotonicMs`.
    expect(builtinsAtReady.filter((id) => /^perf_hooks$|^internal\/perf\/performance$/.test(id))).toEqual([]);
    // The call waited for its server, started after the handoff through the client and the SDK.
    expect(run.stdout).toContain("Echo: after the handoff");
    expect(atExit.some(isClientModule)).toBe(true);
    // The guard above sees the SDK itself, whichever package it comes in: v2's client and core.
    const sdkAtExit = atExit.filter(isSdkModule);
    expect(sdkAtExit.some((id) => id.includes("@modelcontextprotocol/client/"))).toBe(true);
    expect(sdkAtExit.some((id) => id.includes("@modelcontextprotocol/core/"))).toBe(true);
    expect(atExit.some(isZodClassic)).toBe(true);
  });

  it("leaves out what a start would build and never use: jsonc-parser's formatter tables", () => {
    const bundled = Object.values(
      JSON.parse(readFileSync(join(dist, "bundle-modules.json"), "utf8")) as Record<string, string[]>,
    ).flat();
    // The parser is there (config files are JSONC); the 1,200 strings its formatter interns at load are not.
    expect(bundled.some((id) => id.endsWith("jsonc-parser/lib/esm/impl/parser.js"))).toBe(true);
    expect(bundled.filter((id) => id.endsWith("jsonc-parser/lib/esm/impl/string-intern.js"))).toEqual([]);
  });
});
