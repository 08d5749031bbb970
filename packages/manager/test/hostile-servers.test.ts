import { MCPToolCache } from "@mcp-rt/cache";
import { fixtureServer, hugeOutputServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { type MCPManager, McpRtError } from "../src/index.js";
import { DEFAULT_RESULT_MEDIA_BYTE_LIMIT } from "../src/result-limits.js";
import { recordingLogger, textOf, useManagers } from "./helpers.js";

const manager = useManagers();

const warnings = (logger: ReturnType<typeof recordingLogger>): string[] =>
  logger.lines.filter((line) => line.level === "warn").map((line) => line.message);

const toolNamed = (m: MCPManager, name: string) => {
  const tool = m.getTools().find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
};

describe("a hostile server's tool list is bounded, and the host stays up", () => {
  it("keeps 2000 of 5000 tools, with one warning naming the server and the limit", async () => {
    const logger = recordingLogger();
    const m = manager({ logger });
    const { tools, errors } = await m.connectServers({ flood: fixtureServer({ tools: 5000 }) });
    expect(errors.size).toBe(0);
    expect(tools).toHaveLength(2000);
    expect(warnings(logger)).toEqual([
      'MCP server "flood" lists more than 2000 tools; kept the first 2000 and dropped the rest (limit maxTools)',
    ]);
    const few = manager({ toolLimits: { maxTools: 5 } });
    expect((await few.connectServers({ flood: fixtureServer({ tools: 5000 }) })).tools).toHaveLength(5);
  });

  it("cuts long descriptions and replaces a 20000-deep schema, so the tools can be sent to a model and cached", async () => {
    const logger = recordingLogger();
    const cache = new MCPToolCache(new Map());
    const config = fixtureServer({ schemaDepth: 20_000, descriptionChars: 100_000 });
    const m = manager({ logger, cache });
    await m.connectServers({ hostile: config });
    const deep = toolNamed(m, "mcp_hostile_deep");
    expect(deep.parameters).toEqual({ type: "object" });
    expect(deep.description).toContain(
      "the server's input schema was removed because it nests deeper than 64",
    );
    for (const tool of m.getTools()) expect(tool.description.length).toBeLessThan(4096 + 200);
    // What a model turn and the cache write do with the tools.
    expect(() => JSON.stringify(m.getTools().map((tool) => tool.parameters))).not.toThrow();
    await expect.poll(async () => (await cache.get({ serverName: "hostile", config }))?.length).toBe(2);
    expect(warnings(logger)).toEqual([
      expect.stringMatching(/^MCP server "hostile" lists 2 tool description\(s\) longer than 4096/),
      expect.stringMatching(/^MCP server "hostile" lists schemas nested deeper than 64 levels/),
    ]);
  });

  it("drops a tool with a name past maxToolNameLength before naming it", async () => {
    const logger = recordingLogger();
    const m = manager({ logger, toolLimits: { maxToolNameLength: 50 } });
    await m.connectServers({ named: fixtureServer({ longToolName: 60 }) });
    expect(m.getTools().map((tool) => tool.label)).toEqual(["named/echo"]);
    expect(warnings(logger)[0]).toContain("with a name longer than 50 characters; dropped them");
  });

  it("refuses a limit option that is not a positive number, naming it", () => {
    expect(() => manager({ toolLimits: { maxTools: -1 } })).toThrow(
      new McpRtError(
        "CONFIG_INVALID",
        "MCPManager option toolLimits.maxTools: expected a positive number, got -1",
      ),
    );
    expect(() => manager({ maxMessageBytes: 0 })).toThrow(/option maxMessageBytes/);
  });
});

describe("a list_changed storm is rate-limited", () => {
  it("re-lists at most once per minRelistIntervalMs, and logs it once", async () => {
    const logger = recordingLogger();
    const m = manager({ logger, minRelistIntervalMs: 300 });
    let changes = 0;
    m.on("tools:changed", () => changes++);
    const started = performance.now();
    await m.connectServers({ storm: fixtureServer({ listChangedStorm: true }) });
    // Logged once three re-lists in a row had to wait.
    await expect.poll(() => warnings(logger).length, { timeout: 15_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 600));
    // Unbounded, the server drove hundreds of re-lists a second.
    expect(changes).toBeLessThanOrEqual((performance.now() - started) / 300 + 3);
    expect(warnings(logger)).toEqual([
      'MCP server "storm" announces tool changes faster than once per 300 ms; its tools are listed again at most that often (limit minRelistIntervalMs)',
    ]);
    expect(textOf(await toolNamed(m, "mcp_storm_echo").execute("c", { message: "still up" }))).toBe(
      "still up",
    );
  });
});

describe("results and messages are bounded", () => {
  it("counts image bytes in the result budget: a 6 MB image becomes a note", async () => {
    expect(DEFAULT_RESULT_MEDIA_BYTE_LIMIT).toBe(5 * 1024 * 1024);
    const m = manager();
    await m.connectServers({ big: hugeOutputServer() });
    const huge = toolNamed(m, "mcp_big_huge");
    const result = await huge.execute("c1", { bytes: 6_000_000, type: "image" });
    expect(result.content).toEqual([
      {
        type: "text",
        text: "[image image/png, 5.7 MB, not shown: past the 5.0 MB of images a result may hold; raise resultMediaByteLimit to see it]",
      },
    ]);
    const small = await huge.execute("c2", { bytes: 1000, type: "image" });
    expect(small.content[0]).toMatchObject({ type: "image", mimeType: "image/png" });
    const tight = manager({ resultMediaByteLimit: 500 });
    await tight.connectServers({ big: hugeOutputServer() });
    expect(
      textOf(await toolNamed(tight, "mcp_big_huge").execute("c3", { bytes: 1000, type: "image" })),
    ).toMatch(/^\[image image\/png, 1000 B, not shown/);
  });

  it("a message past maxMessageBytes fails its call with LIMIT_EXCEEDED, and the server comes back", async () => {
    const m = manager({ maxMessageBytes: 100_000, reconnect: { initialDelayMs: 10 } });
    await m.connectServers({ big: hugeOutputServer() });
    const result = await toolNamed(m, "mcp_big_huge").execute("c1", { bytes: 200_000 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'MCP error: The call of tool "huge" to MCP server "big" failed: it sent a message larger than 100000 bytes (limit maxMessageBytes), so mcp-rt closed the connection',
    );
    await expect.poll(() => m.getConnectionStatus("big"), { timeout: 10_000 }).toBe("connected");
    expect(textOf(await toolNamed(m, "mcp_big_huge").execute("c2", { bytes: 10 }))).toHaveLength(10);
  });
});

describe("a server that connects and never lists", () => {
  it("fails on its one timeout, and the error quotes the whole budget, not what the connect left", async () => {
    // A bare stdio MCP server that answers initialize after 400 ms and never answers tools/list.
    const script = `
      const rl = require("node:readline").createInterface({ input: process.stdin });
      const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
      rl.on("line", (line) => {
        const m = JSON.parse(line);
        if (m.method === "initialize") setTimeout(() => send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "mute", version: "1" } } }), 400);
      });
      rl.on("close", () => process.exit(0));`;
    const m = manager();
    // Without a cache entry, connectServers waits for the server to settle.
    const { errors } = await m.connectServers({
      // It ignores what it does not know, the era probe too: "legacy" keeps this about the list's timeout.
      mute: { command: process.execPath, args: ["-e", script], timeout: 3000, protocol: "legacy" },
    });
    const error = errors.get("mute");
    expect(error?.code).toBe("REQUEST_TIMEOUT");
    expect(error?.message).toMatch(
      /^The tools\/list request to MCP server "mute" timed out after 3000 ms with the connect \((\d+) ms of it\) \(raise "timeout"/,
    );
    const connectMs = Number(/\((\d+) ms of it\)/.exec(error?.message ?? "")?.[1]);
    expect(connectMs).toBeGreaterThanOrEqual(400);
    expect(connectMs).toBeLessThan(3000);
  });
});
