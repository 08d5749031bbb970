import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MCPToolCache, type MCPToolCacheEra } from "@mcp-rt/cache";
import type { MCPServerConfig, MCPStdioServerConfig } from "@mcp-rt/config";
import {
  type FixtureOptions,
  legacyServer,
  modernServer,
  readPidFileEntries,
  startHttpFixture,
} from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MCPManagerEvents } from "../src/index.js";
import { VERDICT_TTL_MS } from "../src/server/attempt.js";
import { contextAsManager, entryAsManager, recordingLogger, useManagers } from "./helpers.js";

const cwd = process.cwd();
const managers = useManagers();
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-rt-era-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A fixture config counted at the fixture (processes, probes, initializes). */
function counted(make: (options: FixtureOptions) => MCPStdioServerConfig) {
  const pidFile = join(dir, `pids-${Math.random().toString(36).slice(2)}`);
  return {
    config: make({ pidFile }),
    counts: () => {
      const entries = readPidFileEntries(pidFile);
      const count = (role: string) => entries.filter((entry) => entry.role === role).length;
      return { processes: count("server"), probes: count("probe"), initializes: count("initialize") };
    },
  };
}

const legacy = (options: FixtureOptions) => legacyServer("method-not-found", options);

/** Starts `config` as `name` in a manager on `cache`, waits until it is connected, and stops it again. */
async function startOnce(cache: MCPToolCache, name: string, config: MCPServerConfig) {
  const m = managers({ cache, startupMode: "gate" });
  const connected: MCPManagerEvents["server:connected"][] = [];
  m.on("server:connected", (event) => connected.push(event));
  const { errors } = await m.connectServers({ [name]: config });
  expect(errors.get(name)).toBeUndefined();
  await expect.poll(() => m.getConnectionStatus(name), { timeout: 10_000 }).toBe("connected");
  const state = m.getServerStates().find((entry) => entry.name === name);
  await m.disconnectAll();
  return { state, connected };
}

describe("the era verdict in the tool cache", () => {
  it.each([
    ["a modern server", modernServer, "modern", "2026-07-28"],
    ["a legacy server", legacy, "legacy", "2025-11-25"],
  ] as const)("%s: probed once cold, never on a warm start", async (_label, make, era, version) => {
    const cache = new MCPToolCache(new Map());
    const { config, counts } = counted(make);

    const cold = await startOnce(cache, "s", config);
    expect(cold.state?.protocol).toMatchObject({ era, protocolVersion: version, decision: { how: "probe" } });
    expect(cold.connected[0]?.protocol).toMatchObject({ era, protocolVersion: version });
    await expect
      .poll(async () => (await entryAsManager(cache, { serverName: "s", config, cwd }))?.era?.era)
      .toBe(era);
    expect(counts()).toMatchObject({ processes: 1, probes: 1 });

    const warm = await startOnce(cache, "s", config);
    expect(warm.state?.protocol).toMatchObject({
      era,
      protocolVersion: version,
      decision: { how: "stored" },
    });
    expect(counts()).toMatchObject({ processes: 2, probes: 1 });
  });

  it("a legacy verdict older than a day is not used: the server is asked again, on the one process", async () => {
    const cache = new MCPToolCache(new Map());
    const { config, counts } = counted(legacy);
    const old: MCPToolCacheEra = {
      era: "legacy",
      protocolVersion: "2025-11-25",
      decidedAt: Date.now() - VERDICT_TTL_MS - 60_000,
    };
    await cache.set({ serverName: "s", config, cwd }, { tools: [], era: old });
    const { state } = await startOnce(cache, "s", config);
    expect(state?.protocol?.decision.how).toBe("probe");
    expect(counts()).toEqual({ processes: 1, probes: 1, initializes: 1 });
    await expect
      .poll(async () => (await entryAsManager(cache, { serverName: "s", config, cwd }))?.era?.decidedAt)
      .toBeGreaterThan(old.decidedAt);
  });

  it("a stored legacy verdict a modern-only server rejects is replaced by a modern one", async () => {
    const cache = new MCPToolCache(new Map());
    const { config, counts } = counted(modernServer);
    await cache.set(
      { serverName: "s", config, cwd },
      { tools: [], era: { era: "legacy", protocolVersion: "2025-11-25", decidedAt: Date.now() } },
    );
    const { state } = await startOnce(cache, "s", config);
    expect(state?.protocol).toMatchObject({ era: "modern", protocolVersion: "2026-07-28" });
    expect(state?.protocol?.decision.text).toMatch(/^the stored verdict .* no longer fits/);
    expect(counts()).toMatchObject({ processes: 2, probes: 1 });
    await expect
      .poll(async () => (await entryAsManager(cache, { serverName: "s", config, cwd }))?.era?.era)
      .toBe("modern");
  });

  it("a stored modern verdict a legacy server does not fit is replaced by a legacy one", async () => {
    const cache = new MCPToolCache(new Map());
    const modern = counted(modernServer);
    // The modern server's own discover result, as a stale verdict of a server now on the legacy era.
    await startOnce(cache, "m", modern.config);
    const discover = (await entryAsManager(cache, { serverName: "m", config: modern.config, cwd }))?.era;
    expect(discover?.era).toBe("modern");

    const { config, counts } = counted(legacy);
    await cache.set(
      { serverName: "s", config, cwd },
      { tools: [], era: discover as MCPToolCacheEra, authContext: contextAsManager(config) },
    );
    const { state } = await startOnce(cache, "s", config);
    expect(state?.protocol).toMatchObject({ era: "legacy", protocolVersion: "2025-11-25" });
    expect(counts()).toMatchObject({ processes: 2, probes: 1, initializes: 1 });
    await expect
      .poll(async () => (await entryAsManager(cache, { serverName: "s", config, cwd }))?.era?.era)
      .toBe("legacy");
  });

  it.each([400, 404, 405])(
    "a stored modern verdict of an HTTP server that is stateful legacy now (HTTP %i without a session) heals",
    async (status) => {
      const cache = new MCPToolCache(new Map());
      const modern = counted(modernServer);
      await startOnce(cache, "m", modern.config);
      const verdict = (await entryAsManager(cache, { serverName: "m", config: modern.config, cwd }))?.era;
      expect(verdict?.era).toBe("modern");
      const pidFile = join(dir, `http-${status}`);
      const http = await startHttpFixture({ noSessionStatus: status, pidFile });
      try {
        const config = http.config;
        await cache.set(
          { serverName: "h", config, cwd },
          { tools: [], era: verdict as MCPToolCacheEra, authContext: contextAsManager(config) },
        );
        const { state } = await startOnce(cache, "h", config);
        expect(state?.protocol).toMatchObject({ era: "legacy", protocolVersion: "2025-11-25" });
        expect(state?.protocol?.decision.how).toBe("probe");
        await expect
          .poll(async () => (await entryAsManager(cache, { serverName: "h", config, cwd }))?.era?.era)
          .toBe("legacy");
        // The next start connects with the healed verdict: no probe.
        const probes = () => readPidFileEntries(pidFile).filter((line) => line.role === "probe").length;
        const before = probes();
        const again = await startOnce(cache, "h", config);
        expect(again.state?.protocol?.decision.how).toBe("stored");
        expect(probes()).toBe(before);
      } finally {
        await http.close();
      }
    },
  );

  it("a modern verdict older than a day is asked again, on the one process", async () => {
    const cache = new MCPToolCache(new Map());
    const { config, counts } = counted(modernServer);
    await startOnce(cache, "s", config);
    const fresh = await entryAsManager(cache, { serverName: "s", config, cwd });
    const old = { ...(fresh?.era as MCPToolCacheEra), decidedAt: Date.now() - VERDICT_TTL_MS - 60_000 };
    await cache.set(
      { serverName: "s", config, cwd },
      { tools: [], era: old, authContext: contextAsManager(config) },
    );
    const { state } = await startOnce(cache, "s", config);
    expect(state?.protocol?.decision.how).toBe("probe");
    expect(counts()).toEqual({ processes: 2, probes: 2, initializes: 0 });
    await expect
      .poll(async () => (await entryAsManager(cache, { serverName: "s", config, cwd }))?.era?.decidedAt)
      .toBeGreaterThan(old.decidedAt);
  });

  it("a stale verdict's given-up connection says nothing of the lists it could not make", async () => {
    const cache = new MCPToolCache(new Map());
    // A verdict whose discover result declares resources and prompts: the stale connection lists them.
    const modern = counted((options) => modernServer({ ...options, content: true }));
    await startOnce(cache, "m", modern.config);
    const verdict = (await entryAsManager(cache, { serverName: "m", config: modern.config, cwd }))?.era;
    const { config } = counted((options) => legacyServer("method-not-found", { ...options, content: true }));
    await cache.set(
      { serverName: "s", config, cwd },
      { tools: [], era: verdict as MCPToolCacheEra, authContext: contextAsManager(config) },
    );
    const logger = recordingLogger();
    const m = managers({ cache, startupMode: "gate", logger });
    await m.connectServers({ s: config });
    await expect.poll(() => m.getConnectionStatus("s"), { timeout: 10_000 }).toBe("connected");
    await expect.poll(() => m.getResources().length).toBeGreaterThan(0);
    expect(logger.lines.filter((line) => line.level === "warn")).toEqual([]);
  });
});
