import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CACHE_FORMAT_VERSION, createFileStore, MCPToolCache, toolCacheFingerprint } from "@mcp-rt/cache";
import type { MCPServerConfig } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { assertBuilt, cliConfig, cliCwd, runCli } from "./cache-cli.js";
import { recordingLogger, sampleTools, useTempDir } from "./helpers.js";

const config: MCPServerConfig = { command: "npx", args: ["-y", "github-server"] };
const dir = useTempDir("mcp-rt-cache-key-");

describe("cache keys", () => {
  it("an entry planted under the key anyone who knows the config can compute is not served", async () => {
    const store = new Map<string, unknown>();
    const fingerprint = toolCacheFingerprint({ serverName: "github", config, cwd: "/p" });
    const planted = {
      version: CACHE_FORMAT_VERSION,
      fingerprint,
      tools: sampleTools(1, "evil"),
      savedAt: Date.now(),
    };
    store.set(`mcp-rt:${fingerprint}`, JSON.stringify({ value: planted }));
    const cache = new MCPToolCache(store, { readTimeoutMs: 5000 });
    expect(await cache.get({ serverName: "github", config, cwd: "/p" })).toBeNull();
    await cache.set({ serverName: "github", config, cwd: "/p" }, { tools: sampleTools(1, "real") });
    expect(await cache.get({ serverName: "github", config, cwd: "/p" })).toEqual(sampleTools(1, "real"));
  });

  it("a fleet sharing a key shares entries; installations with different keys do not", async () => {
    const folder = join(dir(), "shared-store");
    const fleetKey = "fleet-secret-0123456789abcdef";
    const agent = (key: string): MCPToolCache =>
      new MCPToolCache(createFileStore(folder), { key, readTimeoutMs: 5000 });
    await agent(fleetKey).set(
      { serverName: "github", config, cwd: "/p" },
      { tools: sampleTools(2, "fleet") },
    );
    expect(await agent(fleetKey).get({ serverName: "github", config, cwd: "/p" })).toEqual(
      sampleTools(2, "fleet"),
    );
    expect(
      await agent("another-installation-key").get({ serverName: "github", config, cwd: "/p" }),
    ).toBeNull();
  });

  it("makes the installation's key on first use, 0600 in a 0700 folder, and shares it with other processes", async () => {
    const home = join(dir(), "home");
    const keyFile = join(home, ".mcp-rt", "cache-key");
    const folder = join(dir(), "store");
    const cache = new MCPToolCache(createFileStore(folder), { keyFile, readTimeoutMs: 5000 });
    await cache.set(
      { serverName: "github", config: cliConfig, cwd: cliCwd },
      { tools: sampleTools(3, "parent") },
    );

    expect(await readFile(keyFile, "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, ".mcp-rt"))).mode & 0o777).toBe(0o700);
    const again = new MCPToolCache(createFileStore(folder), { keyFile, readTimeoutMs: 5000 });
    expect(await again.get({ serverName: "github", config: cliConfig, cwd: cliCwd })).toEqual(
      sampleTools(3, "parent"),
    );
    const elsewhere = join(dir(), "other", "cache-key");
    expect(
      await new MCPToolCache(createFileStore(folder), { keyFile: elsewhere }).get({
        serverName: "github",
        config: cliConfig,
        cwd: cliCwd,
      }),
    ).toBeNull();

    // Another process of the same user: no key given, so ~/.mcp-rt/cache-key under its HOME.
    assertBuilt();
    const read = await runCli([`file:${folder}`, "get", "github"], {
      env: { HOME: home, CACHE_CLI_KEY: "" },
    });
    expect(read).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(read.stdout)).toEqual(sampleTools(3, "parent"));
  });

  it("agents that start together make one key between them", async () => {
    const keyFile = join(dir(), "home", ".mcp-rt", "cache-key");
    const folder = join(dir(), "store");
    const caches = Array.from(
      { length: 8 },
      () => new MCPToolCache(createFileStore(folder), { keyFile, readTimeoutMs: 5000 }),
    );
    await Promise.all(
      caches.map((cache, i) =>
        cache.set({ serverName: `s${i}`, config, cwd: "/p" }, { tools: sampleTools(1, `s${i}`) }),
      ),
    );
    for (const cache of caches) {
      for (let i = 0; i < caches.length; i++) {
        expect(await cache.get({ serverName: `s${i}`, config, cwd: "/p" })).toEqual(sampleTools(1, `s${i}`));
      }
    }
    expect((await readFile(keyFile, "utf8")).trim()).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a key file it cannot use costs one warning: entries then last for this process only", async () => {
    const blocker = join(dir(), "a-file");
    await writeFile(blocker, "not a folder");
    await mkdir(join(dir(), "short"));
    await writeFile(join(dir(), "short", "cache-key"), "too short\n");
    for (const keyFile of [join(blocker, "cache-key"), join(dir(), "short", "cache-key")]) {
      const logger = recordingLogger();
      const cache = new MCPToolCache(createFileStore(join(dir(), "store")), { keyFile, logger });
      await cache.set({ serverName: "github", config, cwd: "/p" }, { tools: sampleTools(1) });
      expect(await cache.get({ serverName: "github", config, cwd: "/p" })).toEqual(sampleTools(1));
      expect(logger.count("warn")).toBe(1);
      expect(logger.lines[0]?.message).toContain(keyFile);
    }
  });

  it("refuses a key under 16 bytes when the cache is made", () => {
    expect(() => new MCPToolCache(new Map(), { key: "short" })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
  });
});
