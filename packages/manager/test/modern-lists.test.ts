import { randomUUID } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MCPToolCache } from "@mcp-rt/cache";
import { createMemoryAuthStorage, type MCPServerConfig, type MCPToolDefinition } from "@mcp-rt/config";
import {
  type HttpFixture,
  type HttpFixtureOptions,
  readPidFileEntries,
  startHttpFixture,
} from "@mcp-rt/testing";
import { afterEach, describe, expect, it } from "vitest";
import { DeferredMCPTool } from "../src/index.js";
import { entryAsManager, recordingLogger, textOf, useManagers } from "./helpers.js";

const cwd = process.cwd();
const manager = useManagers();
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A 2026-07-28 HTTP fixture whose pid file counts the `tools/list` requests it gets. */
async function modernServer(options: HttpFixtureOptions): Promise<HttpFixture & { lists(): number }> {
  const pidFile = join(tmpdir(), `mcp-rt-lists-${randomUUID()}.pid`);
  const fixture = await startHttpFixture({ era: "modern", pidFile, ...options });
  cleanup.push(
    () => rm(pidFile, { force: true }),
    () => fixture.close(),
  );
  return Object.assign(fixture, {
    lists: () => readPidFileEntries(pidFile).filter((entry) => entry.role === "list").length,
  });
}

const routed: MCPToolDefinition = {
  name: "routed",
  inputSchema: {
    type: "object",
    properties: { region: { type: "string", "x-mcp-header": "Region" }, note: { type: "string" } },
    required: ["region"],
  },
};
/** A tool only the cache knows: it is there after connect only when the cached list was taken as live. */
const cachedOnly: MCPToolDefinition = { name: "cached_only", inputSchema: { type: "object" } };
const hint = (ttlMs: number, cacheScope: "public" | "private") => ({
  ttlMs,
  cacheScope,
  receivedAt: Date.now(),
});
const names = (m: ReturnType<typeof manager>): string[] => m.getTools().map((tool) => tool.name);

describe("cacheable lists (SEP-2549) at a warm start", () => {
  it("within a fresh public ttlMs, take the cached list as live, and calls still send Mcp-Param-*", async () => {
    const server = await modernServer({ headerTools: true, listTtlMs: 60_000, listScope: "public" });
    const cache = new MCPToolCache(new Map());
    await cache.set(
      { serverName: "x", config: server.config, cwd },
      { tools: [routed, cachedOnly], toolsHint: hint(60_000, "public") },
    );
    const m = manager({ cache });
    await m.connectServers({ x: server.config });
    await m.waitForConnection("x");
    expect(names(m)).toEqual(["mcp_x_routed", "mcp_x_cached_only"]);
    expect(server.lists()).toBe(0);

    const call = m.getTools().find((tool) => tool.name === "mcp_x_routed");
    expect(textOf(await call!.execute("c", { region: "eu-west" }))).toBe("routed to eu-west");
    // The header came from the cached definition: no HeaderMismatch, no list to recover from one.
    expect(server.stderr()).not.toMatch(/Rejected inbound request/);
    expect(server.lists()).toBe(0);
  });

  it("a deferred tool called before the server is up sends Mcp-Param-* from its cached definition", async () => {
    const server = await modernServer({ headerTools: true, listTtlMs: 60_000, listScope: "public" });
    const cache = new MCPToolCache(new Map());
    await cache.set(
      { serverName: "x", config: server.config, cwd },
      { tools: [routed], toolsHint: hint(60_000, "public") },
    );
    const m = manager({ cache, startupMode: "cache-first" });
    const { tools } = await m.connectServers({ x: server.config });
    const [deferred] = tools;
    expect(deferred).toBeInstanceOf(DeferredMCPTool);
    expect(m.getConnectionStatus("x")).toBe("connecting");
    expect(textOf(await deferred!.execute("c", { region: "ap-south" }))).toBe("routed to ap-south");
    expect(server.stderr()).not.toMatch(/Rejected inbound request/);
    expect(server.lists()).toBe(0);
  });

  it("with ttlMs 0 (the SDK's default) list again as before, and drop a tool with an invalid x-mcp-header, named", async () => {
    const server = await modernServer({ headerTools: true });
    const cache = new MCPToolCache(new Map());
    await cache.set(
      { serverName: "x", config: server.config, cwd },
      { tools: [routed, cachedOnly], toolsHint: hint(0, "public") },
    );
    const logger = recordingLogger();
    const m = manager({ cache, logger });
    await m.connectServers({ x: server.config });
    await m.waitForConnection("x");
    expect(names(m)).toEqual(["mcp_x_echo", "mcp_x_routed"]);
    expect(server.lists()).toBe(1);
    expect(logger.lines.filter((line) => line.level === "warn").map((line) => line.message)).toEqual([
      expect.stringMatching(/^MCP server "x" lists tool "bad_header" with an invalid x-mcp-header \(count: /),
    ]);
    await m.disconnectAll();
    expect(
      (await entryAsManager(cache, { serverName: "x", config: server.config, cwd }))?.toolsHint,
    ).toMatchObject({
      ttlMs: 0,
      cacheScope: "private",
    });
  });

  it("keep a private list per principal: never served to another, also from a shared store", async () => {
    const server = await modernServer({ listTtlMs: 60_000, listScope: "private" });
    const config: MCPServerConfig = { ...server.config, auth: { type: "apikey", credentialId: "key" } };
    const cache = new MCPToolCache(new Map());
    const as = async (key: string) => {
      const m = manager({ cache, authStorage: createMemoryAuthStorage({ key }) });
      await m.connectServers({ x: config });
      await m.waitForConnection("x");
      await m.disconnectAll();
      return names(m);
    };
    await as("ann");
    expect(server.lists()).toBe(1);
    // Not under the plain key: a reader that does not know ann's context finds nothing.
    expect(await cache.get({ serverName: "x", config, cwd })).toBeNull();
    await as("bob");
    expect(server.lists()).toBe(2);
    await as("ann");
    expect(server.lists()).toBe(2);
    await as("bob");
    expect(server.lists()).toBe(2);
  });
});

describe("list changes over 2026-07-28 Streamable HTTP", () => {
  it("reach the manager through subscriptions/listen: tools:changed, and the new tool", async () => {
    const server = await modernServer({ listChanging: true });
    const m = manager();
    let changes = 0;
    m.on("tools:changed", () => changes++);
    await m.connectServers({ x: server.config });
    await m.waitForConnection("x");
    const before = changes;
    const addTool = m.getTools().find((tool) => tool.name === "mcp_x_add_tool");
    // The stream opens in the background, after connect: a change made before it is acknowledged is not heard.
    for (let i = 0; changes === before && i < 25; i++) {
      await addTool!.execute("c", { name: `extra${i}` });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await expect.poll(() => names(m), { timeout: 5000 }).toContain("mcp_x_extra0");
    expect(server.lists()).toBeGreaterThan(1);
  });
});

/**
 * A bare 2026-07-28 stdio server: `refuse` advertises `tools.listChanged` and
 * answers `subscriptions/listen` with -32603 (as Context7 over HTTP does);
 * `none` has no `listChanged`. Its lists carry `ttlMs` and are counted in `log`.
 */
function bareServer(kind: "refuse" | "none", ttlMs: number, log: string): MCPServerConfig {
  const script = [
    "import { appendFileSync } from 'node:fs';",
    "import { createInterface } from 'node:readline';",
    "const { KIND, TTL, LOG } = process.env;",
    "const tools = KIND === 'refuse' ? { listChanged: true } : {};",
    "const results = {",
    "  'server/discover': { supportedVersions: ['2026-07-28'], capabilities: { tools }, serverInfo: { name: 'bare', version: '1' }, resultType: 'complete', ttlMs: 0, cacheScope: 'public' },",
    "  'tools/list': { tools: [{ name: 'hello', inputSchema: { type: 'object' } }], resultType: 'complete', ttlMs: Number(TTL), cacheScope: 'public' },",
    "  'tools/call': { content: [{ type: 'text', text: 'hi' }], resultType: 'complete' },",
    "};",
    "createInterface({ input: process.stdin }).on('line', (line) => {",
    "  const { id, method } = JSON.parse(line);",
    "  if (id === undefined) return;",
    "  if (method === 'tools/list') appendFileSync(LOG, 'list\\n');",
    "  const code = method === 'subscriptions/listen' ? -32603 : -32601;",
    "  const body = results[method] ? { result: results[method] } : { error: { code, message: 'not here' } };",
    "  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, ...body }) + '\\n');",
    "});",
  ];
  return {
    command: process.execPath,
    args: ["--input-type=module", "-e", script.join("\n")],
    env: { KIND: kind, TTL: String(ttlMs), LOG: log },
  };
}

describe("a server that refuses subscriptions/listen", () => {
  it.each([
    ["refuses listen", "refuse", 0, 2],
    ["has no listChanged", "none", 0, 2],
    ["refuses listen", "refuse", 60_000, 1],
    ["has no listChanged", "none", 60_000, 1],
  ] as const)(
    "a server that %s (%s) stays connected, revalidated as one without listChanged: ttlMs %i, %i lists in two starts",
    async (_label, kind, ttlMs, lists) => {
      const log = join(tmpdir(), `mcp-rt-bare-${randomUUID()}.log`);
      cleanup.push(() => rm(log, { force: true }));
      const config = bareServer(kind, ttlMs, log);
      const cache = new MCPToolCache(new Map());
      for (let start = 0; start < 2; start++) {
        const logger = recordingLogger();
        const m = manager({ cache, logger });
        await m.connectServers({ bare: config });
        await m.waitForConnection("bare");
        const hello = m.getTools().find((tool) => tool.name === "mcp_bare_hello");
        expect(textOf(await hello!.execute("c", {}))).toBe("hi");
        if (kind === "refuse") {
          await expect
            .poll(() =>
              logger.lines.some((line) => /refused subscriptions\/listen/.test(JSON.stringify(line))),
            )
            .toBe(true);
        }
        expect(m.getConnectionStatus("bare")).toBe("connected");
        await m.disconnectAll();
      }
      expect((await readFile(log, "utf8")).split("\n").filter(Boolean)).toHaveLength(lists);
    },
  );
});
