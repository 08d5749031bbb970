import { join } from "node:path";
import { callTool, closeConnection, listTools, type MCPEraVerdict } from "@mcp-rt/client";
import type { MCPStdioServerConfig } from "@mcp-rt/config";
import {
  dualEraServer,
  type FixtureOptions,
  legacyServer,
  modernServer,
  readPidFileEntries,
} from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { inlineServer, useConnections, useTempDir } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const tmp = useTempDir("mcp-rt-stdio-era-");
const { connect, connectError } = useConnections();

/** A fixture counted at the fixture: processes started, `server/discover` and `initialize` received. */
function counted<T extends FixtureOptions>(
  make: (options: T) => MCPStdioServerConfig,
  options: T = {} as T,
): {
  config: MCPStdioServerConfig;
  counts: () => { processes: number; probes: number; initializes: number };
} {
  const pidFile = join(tmp(), `pids-${Math.random().toString(36).slice(2)}`);
  return {
    config: make({ ...options, pidFile }),
    counts: () => {
      const entries = readPidFileEntries(pidFile);
      const count = (role: string) => entries.filter((entry) => entry.role === role).length;
      return { processes: count("server"), probes: count("probe"), initializes: count("initialize") };
    },
  };
}

describe("a stdio server's era, found on the process that keeps serving it", () => {
  it.each([
    ["a modern-only server", () => counted(modernServer)],
    ["a dual-era server", () => counted(dualEraServer)],
  ])("%s lands on 2026-07-28 with one process and one probe", async (_label, make) => {
    const { config, counts } = make();
    const connection = await connect({ name: "m", config });
    expect(connection.era).toBe("modern");
    expect(connection.protocolVersion).toBe("2026-07-28");
    expect(connection.eraDecision).toEqual({
      how: "probe",
      text: "the server answered server/discover offering 2026-07-28",
    });
    expect(connection.eraVerdict).toMatchObject({ era: "modern", protocolVersion: "2026-07-28" });
    expect(connection.eraVerdict.discover).toMatchObject({ supportedVersions: ["2026-07-28"] });
    expect((await listTools(connection)).map((tool) => tool.name)).toContain("echo");
    const result = await callTool(connection, { name: "echo", args: { message: "hi" } });
    expect(result.isError).not.toBe(true);
    expect(counts()).toEqual({ processes: 1, probes: 1, initializes: 0 });
  });

  it("waits for a dual-era server that reads its stdin only after 3 s: modern, one process", async () => {
    const { config, counts } = counted(dualEraServer, { stdinDelayMs: 3000 });
    const connection = await connect({ name: "slow", config });
    expect(connection.era).toBe("modern");
    expect(counts()).toEqual({ processes: 1, probes: 1, initializes: 0 });
  });

  it("counts the probe's wait from the server's first output, not from its spawn", async () => {
    // Silent for 1.2 s (a package being downloaded), then a line on stderr, then it reads stdin 0.6 s later:
    // past 1.5 s from its spawn, well within 1.5 s of its first output.
    const late = inlineServer([
      "import { createInterface } from 'node:readline';",
      "import { setTimeout as sleep } from 'node:timers/promises';",
      "await sleep(1200);",
      "console.error('warming up');",
      "await sleep(600);",
      "createInterface({ input: process.stdin }).on('line', (line) => {",
      "  const { id, method } = JSON.parse(line);",
      "  if (method !== 'server/discover') return;",
      "  const result = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, resultType: 'complete' };",
      "  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');",
      "});",
    ]);
    const connection = await connect({ name: "late", config: late, probeWaitMs: 1500 });
    expect(connection.era).toBe("modern");
    expect(connection.eraDecision.how).toBe("probe");
  });

  it.each([
    ["-32601", "method-not-found", /answered server\/discover with -32601 .*legacy era/],
    ["-32602", "invalid-params", /answered server\/discover with -32602 .*legacy era/],
  ] as const)(
    "a legacy server answering the probe with %s: initialize on the same process",
    async (_code, answer, text) => {
      const { config, counts } = counted((options) => legacyServer(answer, options));
      const connection = await connect({ name: "old", config });
      expect(connection.era).toBe("legacy");
      expect(connection.protocolVersion).toBe("2025-11-25");
      expect(connection.eraDecision.how).toBe("probe");
      expect(connection.eraDecision.text).toMatch(text);
      expect(connection.eraVerdict).toEqual({
        era: "legacy",
        protocolVersion: "2025-11-25",
        decidedAt: expect.any(Number),
      });
      expect(counts()).toEqual({ processes: 1, probes: 1, initializes: 1 });
    },
  );

  // The exit ends the probe's wait whatever its length: a long one keeps a loaded machine's slow exit in it.
  it.each([
    ["never answers", "never", 800, /did not answer server\/discover within 800 ms of its last output/],
    ["exits on", "exit", 20_000, /exited on server\/discover/],
  ] as const)(
    "a legacy server that %s the probe is started again straight into initialize",
    async (_label, answer, probeWaitMs, text) => {
      const { config, counts } = counted((options) => legacyServer(answer, options));
      const connection = await connect({
        name: "old",
        config: { ...config, timeout: 30_000 },
        probeWaitMs,
      });
      expect(connection.era).toBe("legacy");
      expect(connection.eraDecision.how).toBe("fallback");
      expect(connection.eraDecision.text).toMatch(text);
      expect(connection.eraDecision.text).toMatch(/started again straight into initialize/);
      // The second process never sees a probe: initialize never follows an unanswered discover.
      expect(counts()).toEqual({ processes: 2, probes: 1, initializes: 1 });
      expect((await listTools(connection)).length).toBeGreaterThan(0);
    },
  );

  it('`protocol: "legacy"` sends no probe', async () => {
    const { config, counts } = counted(legacyServer.bind(null, "method-not-found"));
    const connection = await connect({ name: "old", config: { ...config, protocol: "legacy" } });
    expect(connection.era).toBe("legacy");
    expect(connection.eraDecision).toEqual({ how: "setting", text: 'the config says protocol "legacy"' });
    expect(counts()).toEqual({ processes: 1, probes: 0, initializes: 1 });
  });

  it('`protocol: "2026-07-28"` connects a modern server and fails a legacy one, saying what to change', async () => {
    const modern = counted(modernServer);
    const connection = await connect({ name: "m", config: { ...modern.config, protocol: "2026-07-28" } });
    expect(connection.era).toBe("modern");
    expect(connection.eraDecision.how).toBe("setting");

    const legacy = counted((options) => legacyServer("method-not-found", options));
    const error = await connectError({ name: "old", config: { ...legacy.config, protocol: "2026-07-28" } });
    expect(error.code).toBe("INIT_FAILED");
    expect(error.message).toContain(
      'the config says protocol "2026-07-28", but it answered server/discover with -32601 (Method not found); set "protocol" to "auto" or "legacy"',
    );
    expect(legacy.counts()).toEqual({ processes: 1, probes: 1, initializes: 0 });
  });
});

describe("slow starts and exits, under auto", () => {
  it("a legacy server that ignores the probe after a banner falls back about the wait after its last line", async () => {
    const { config, counts } = counted((options) =>
      legacyServer("never", { ...options, quiet: true, stderrBanner: "Starting the server…" }),
    );
    const started = Date.now();
    const connection = await connect({
      name: "old",
      config: { ...config, timeout: 60_000 },
      probeWaitMs: 1500,
    });
    const tookMs = Date.now() - started;
    expect(connection.era).toBe("legacy");
    expect(connection.eraDecision.text).toMatch(/within 1500 ms of its last output/);
    // Not half the 60 s timeout, as for a server that writes nothing: the wait counts from the banner.
    expect(tookMs).toBeLessThan(30_000);
    expect(counts()).toEqual({ processes: 2, probes: 1, initializes: 1 });
  }, 70_000);

  it("a modern-only server that writes a line and is ready 6 s later connects in the modern era", async () => {
    const { config, counts } = counted((options) =>
      modernServer({ ...options, quiet: true, stderrBanner: "npm warn deprecated a@1", stdinDelayMs: 6000 }),
    );
    const connection = await connect({ name: "slow", config: { ...config, timeout: 30_000 } });
    expect(connection.era).toBe("modern");
    expect(connection.eraDecision.text).toMatch(
      /^initialize was refused with -32022 \(it supports only 2026-07-28\); asked again, the server answered server\/discover/,
    );
    expect((await listTools(connection)).map((tool) => tool.name)).toContain("echo");
    // The probe, the fallback initialize on a second process, and the probe again on a third.
    expect(counts()).toMatchObject({ processes: 3, initializes: 1 });
  }, 40_000);

  it("a server that exits by itself, after the probe's window, fails with one process and its exit", async () => {
    const { config, counts } = counted((options) =>
      legacyServer("method-not-found", {
        ...options,
        stderrBanner: "Starting the server…",
        exitCode: 3,
        exitDelayMs: 1500,
      }),
    );
    const error = await connectError({ name: "broken", config });
    expect(error.code).toBe("INIT_FAILED");
    expect(error.message).toMatch(/process exited with code 3/);
    expect(counts()).toEqual({ processes: 1, probes: 0, initializes: 0 });
  });
});

describe("a stored verdict", () => {
  it("connects without a probe, in the era it names", async () => {
    const modern = counted(modernServer);
    const first = await connect({ name: "m", config: modern.config });
    const verdict = first.eraVerdict;
    await closeConnection(first);
    const again = await connect({ name: "m", config: modern.config, prior: verdict });
    expect(again.era).toBe("modern");
    expect(again.eraDecision.how).toBe("stored");
    expect(again.eraDecision.text).toMatch(
      /^a verdict stored less than a minute ago says 2026-07-28; no probe sent$/,
    );
    expect(again.eraVerdict.decidedAt).toBe(verdict.decidedAt);
    expect((await listTools(again)).map((tool) => tool.name)).toContain("echo");
    expect(modern.counts()).toEqual({ processes: 2, probes: 1, initializes: 0 });

    const legacy = counted((options) => legacyServer("method-not-found", options));
    const old: MCPEraVerdict = {
      era: "legacy",
      protocolVersion: "2025-11-25",
      decidedAt: Date.now() - 3_600_000,
    };
    const connection = await connect({ name: "old", config: legacy.config, prior: old });
    expect(connection.era).toBe("legacy");
    expect(connection.eraDecision.text).toMatch(/^a verdict stored 60 min ago says 2025-11-25 \(legacy\)/);
    expect(legacy.counts()).toEqual({ processes: 1, probes: 0, initializes: 1 });
  });

  it("that a modern-only server no longer fits (it rejects initialize) is probed again once and replaced", async () => {
    const { config, counts } = counted(modernServer);
    const stale: MCPEraVerdict = { era: "legacy", protocolVersion: "2025-11-25", decidedAt: Date.now() };
    const connection = await connect({ name: "m", config, prior: stale });
    expect(connection.era).toBe("modern");
    expect(connection.eraDecision.how).toBe("probe");
    expect(connection.eraDecision.text).toMatch(
      /^the stored verdict \(2025-11-25 \(legacy\)\) no longer fits: the server rejected the handshake, so it was asked again; the server answered server\/discover/,
    );
    expect(connection.eraVerdict.era).toBe("modern");
    expect(counts()).toEqual({ processes: 2, probes: 1, initializes: 1 });
  });
});
