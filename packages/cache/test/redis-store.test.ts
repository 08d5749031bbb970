import { once } from "node:events";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { createCacheFromUrl, MCPToolCache } from "@mcp-rt/cache";
import { toolCacheContractTests } from "@mcp-rt/cache/contract";
import { createRedisStore } from "@mcp-rt/cache/redis";
import { McpRtError } from "@mcp-rt/config";
import { freePort, type RedisServer, redisUnavailable, startRedisServer } from "@mcp-rt/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { assertBuilt, cliConfig, cliCwd, runCli } from "./cache-cli.js";
import { recordingLogger, sampleTools, testCacheKey } from "./helpers.js";

const missing = redisUnavailable();
const config = { command: "node", args: ["server.js"] };

describe("createRedisStore", () => {
  it("rejects a URL that is not redis: or rediss:, without echoing a password", () => {
    expect(() => createRedisStore("http://user:hunter2@localhost:6379")).toThrowError(McpRtError);
    try {
      createRedisStore("postgres://user:hunter2@db/x");
    } catch (error) {
      expect(McpRtError.isInstance(error) && error.code).toBe("CONFIG_INVALID");
      expect(String(error)).not.toContain("hunter2");
    }
  });

  it.each(["redis:cache", "redis://", "rediss://:6379", "redis://h:notaport", 42])(
    "rejects %j with CONFIG_INVALID, not a TypeError from the client",
    (url) => {
      const make = (): unknown => createRedisStore(url as string);
      expect(make).toThrowError(McpRtError);
      expect(make).toThrowError(/use redis:\/\/host:port/);
    },
  );

  it("drops a server that accepts connections but never answers (say, a TLS port), and says so", async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.resume();
      socket.on("close", () => sockets.delete(socket));
    });
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    const { port } = silent.address() as AddressInfo;
    const logger = recordingLogger();
    const store = createRedisStore(`redis://127.0.0.1:${port}`, { connectTimeoutMs: 300 });
    const cache = new MCPToolCache(store, { logger, readTimeoutMs: 5000, key: testCacheKey });
    try {
      expect(await cache.get({ serverName: "s", config, cwd: "/p" })).toBeNull();
      expect(logger.lines.filter((line) => line.level === "warn").map((line) => line.message)).toEqual([
        expect.stringMatching(/accepted the connection but did not answer within 300 ms.*rediss:/),
      ]);
      await vi.waitFor(() => expect(sockets.size).toBe(0), { timeout: 5000 });
    } finally {
      await cache.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
      await once(silent, "close");
    }
  });
});

// In CI a missing redis-server fails every one of these tests; locally it skips them.
describe.skipIf(missing !== undefined && process.env.CI !== "true")("the Redis store", () => {
  let redis: RedisServer;
  const cleanup: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    if (!missing) redis = await startRedisServer();
  });
  beforeEach(() => {
    if (missing) throw new Error(missing);
  });
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  describe("MCPToolCache on Redis", () => {
    toolCacheContractTests(it, () => createRedisStore(redis.url));
  });

  it("misses within the read bound when Redis is killed, warns once, and recovers when it is back", async () => {
    const own = await startRedisServer();
    cleanup.push(() => own.stop());
    const logger = recordingLogger();
    const cache = new MCPToolCache(createRedisStore(own.url), {
      logger,
      readTimeoutMs: 500,
      key: testCacheKey,
    });
    cleanup.push(() => cache.close());
    await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: sampleTools(3) });
    expect(await cache.get({ serverName: "s", config, cwd: "/p" })).toEqual(sampleTools(3));

    await own.kill();
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      expect(await cache.get({ serverName: "s", config, cwd: "/p" })).toBeNull();
      expect(Date.now() - started).toBeLessThan(1000);
    }
    const started = Date.now();
    await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: sampleTools(1) });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(logger.count("warn")).toBe(1);

    await own.start();
    const deadline = Date.now() + 15_000;
    let tools = null;
    while (tools === null && Date.now() < deadline) {
      await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: sampleTools(2) });
      tools = await cache.get({ serverName: "s", config, cwd: "/p" });
      if (tools === null) await new Promise((done) => setTimeout(done, 200));
    }
    expect(tools).toEqual(sampleTools(2));
    expect(logger.count("info")).toBe(1);
    expect(logger.count("warn")).toBe(1);
  });

  it("neither throws nor hangs for a Redis that is not there", async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const logger = recordingLogger();
    const started = Date.now();
    const cache = await createCacheFromUrl(url, { logger, key: testCacheKey });
    expect(await cache.get({ serverName: "s", config, cwd: "/p" })).toBeNull();
    await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: sampleTools(1) });
    expect(await cache.get({ serverName: "s", config, cwd: "/p" })).toBeNull();
    await cache.close();
    expect(Date.now() - started).toBeLessThan(3000);
    // A read may also time out before the refused connection is reported: at most one warning of each kind.
    expect(logger.lines.filter((l) => l.level === "warn" && l.message.includes("store failed"))).toHaveLength(
      1,
    );
    expect(logger.count("warn")).toBeLessThanOrEqual(2);
  });

  it("lets a process exit on its own after close(), even with Redis down", async () => {
    assertBuilt();
    // Killed (code null) if it does not exit by itself; generous for a loaded machine.
    const run = await runCli([`redis://127.0.0.1:${await freePort()}`, "get", "s"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("null");
  });

  it("does not keep a process alive while Redis is down, even without close()", async () => {
    assertBuilt();
    const url = `redis://127.0.0.1:${await freePort()}`;
    const run = await runCli([url, "get", "s", "--no-close"]);
    expect(run).toMatchObject({ code: 0, stdout: "null" });
  });

  it("fails at once while Redis is down, not after the read or connect timeouts", async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const store = createRedisStore(url, { connectTimeoutMs: 20_000 });
    const cache = new MCPToolCache(store, {
      readTimeoutMs: 20_000,
      writeTimeoutMs: 20_000,
      key: testCacheKey,
    });
    cleanup.push(() => cache.close());
    const started = Date.now();
    for (let i = 0; i < 20; i++) {
      expect(await cache.get({ serverName: "s", config, cwd: "/p" })).toBeNull();
      await cache.set({ serverName: "s", config, cwd: "/p" }, { tools: sampleTools(1) });
    }
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("is shared by two processes: one writes, the other reads", async () => {
    assertBuilt();
    const written = await runCli([redis.url, "set", "shared"], { stdin: sampleTools(4, "child") });
    expect(written).toMatchObject({ code: 0, stderr: "" });
    const cache = await createCacheFromUrl(redis.url, { readTimeoutMs: 5000, key: testCacheKey });
    cleanup.push(() => cache.close());
    expect(await cache.get({ serverName: "shared", config: cliConfig, cwd: cliCwd })).toEqual(
      sampleTools(4, "child"),
    );
    await cache.set(
      { serverName: "shared", config: cliConfig, cwd: cliCwd },
      { tools: sampleTools(2, "parent") },
    );
    const read = await runCli([redis.url, "get", "shared"]);
    expect(JSON.parse(read.stdout)).toEqual(sampleTools(2, "parent"));
  });
});
