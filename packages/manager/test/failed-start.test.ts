import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MCPToolCache } from "@mcp-rt/cache";
import { legacyServer, readPidFileEntries } from "@mcp-rt/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordingLogger, useManagers } from "./helpers.js";

// A server that fails at start (offline, say: `getaddrinfo ENOTFOUND`) must not hold up every
// later start, nor cost two processes each time.

const managers = useManagers();
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-rt-failed-start-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("a server that fails at start by itself", () => {
  it("is waited for once; later starts go on without it, start it behind the others, and its success replaces the note", async () => {
    const cache = new MCPToolCache(new Map());
    const pidFile = join(dir, "pids");
    const broken = join(dir, "offline");
    writeFileSync(broken, "");
    // Fails 1.5 s into its start while the file exists, reading nothing: no probe answered, no restart.
    const flaky = legacyServer("method-not-found", {
      pidFile,
      exitCode: 3,
      exitDelayMs: 1500,
      exitWhileFile: broken,
      stderrBanner: "Error: getaddrinfo ENOTFOUND example.invalid",
    });
    const processes = () => readPidFileEntries(pidFile).filter((entry) => entry.role === "server").length;
    const start = async () => {
      const logger = recordingLogger();
      const m = managers({ cache, startupMode: "cache-first", logger });
      const began = performance.now();
      const result = await m.connectServers({ flaky });
      const tookMs = performance.now() - began;
      const state = m.getServerStates().find((entry) => entry.name === "flaky");
      const failure = result.errors.get("flaky");
      await m.waitForConnection("flaky").catch(() => undefined);
      const after = m.getServerStates().find((entry) => entry.name === "flaky");
      await m.disconnectAll();
      return { tookMs, state, failure, after };
    };

    const first = await start();
    expect(first.failure?.code).toBe("INIT_FAILED");
    expect(first.tookMs).toBeGreaterThan(1400);
    expect(processes()).toBe(1);

    for (const n of [2, 3]) {
      const later = await start();
      // Not waited for: the note says why, and the server is still started (one process).
      expect(later.tookMs).toBeLessThan(1000);
      expect(later.failure).toBeUndefined();
      expect(later.state).toMatchObject({
        status: "connecting",
        notWaitedFor: { reason: "failed-before", failure: { code: "INIT_FAILED" } },
      });
      expect(later.after?.status).toBe("failed");
      expect(processes()).toBe(n);
    }

    // Fixed: it comes up (still not waited for), and its tools replace the note.
    rmSync(broken);
    const fixed = await start();
    expect(fixed.state?.notWaitedFor?.reason).toBe("failed-before");
    expect(fixed.after?.status).toBe("connected");
    const warm = await start();
    expect(warm.state).toMatchObject({ deferred: true });
    expect(warm.state?.notWaitedFor).toBeUndefined();
    expect(existsSync(broken)).toBe(false);
  }, 40_000);
});
