import type { MCPServerConfig } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { keepBrokenFiles, planReload } from "../src/fleet/reload-plan.js";
import type { Attempt } from "../src/server/attempt.js";
import { ServerRecord } from "../src/server/server-record.js";

/** Servers by name: those `started` were started (an attempt, no process), those `known` only remembered. */
function tableOf(started: Record<string, MCPServerConfig>, known: Record<string, MCPServerConfig> = {}) {
  const servers = new Map<string, ServerRecord>();
  for (const [name, config] of Object.entries(started)) {
    const record = new ServerRecord(name, config);
    record.start({ config } as Attempt);
    servers.set(name, record);
  }
  for (const [name, config] of Object.entries(known)) servers.set(name, new ServerRecord(name, config));
  return servers;
}

describe("planReload: a reload computed from the table and the new configs, before anything is applied", () => {
  it("sorts every server into added, removed, restarted and unchanged, and says what to stop and start", async () => {
    const table = tableOf(
      { same: { command: "a" }, changed: { command: "b" }, gone: { command: "c" } },
      {
        off: { command: "d", enabled: false },
      },
    );
    const configs: Record<string, MCPServerConfig> = {
      same: { command: "a" },
      changed: { command: "b2" },
      off: { command: "d" },
      fresh: { command: "e" },
    };
    const plan = await planReload({
      servers: table,
      configs,
      differs: async (record, config) => JSON.stringify(record.config) !== JSON.stringify(config),
    });
    expect(plan.change).toEqual({
      added: ["off", "fresh"],
      removed: ["gone"],
      restarted: ["changed"],
      unchanged: ["same"],
    });
    expect([...plan.stop].sort()).toEqual(["changed", "gone", "off"]);
    expect(Object.keys(plan.start).sort()).toEqual(["changed", "fresh", "off"]);
    expect(plan.keep).toEqual(["same"]);
    // Computing the plan changed nothing: every record is still in the table, in its phase.
    expect([...table.keys()].sort()).toEqual(["changed", "gone", "off", "same"]);
    expect(table.get("gone")?.phase).toBe("connecting");
  });

  it("restarts every started server with `all`, without asking whether it differs", async () => {
    const table = tableOf({ a: { command: "a" }, b: { command: "b" } });
    const plan = await planReload({
      servers: table,
      configs: { a: { command: "a" }, b: { command: "b" } },
      all: true,
      differs: () => Promise.reject(new Error("not asked")),
    });
    expect(plan.change.restarted).toEqual(["a", "b"]);
    expect(plan.change.unchanged).toEqual([]);
  });
});

describe("keepBrokenFiles: what a reload keeps while a file is broken", () => {
  const source = (path: string) => ({
    provider: "cursor",
    providerName: "Cursor",
    path,
    level: "user" as const,
  });
  const views = () =>
    [...tableOf({ kept: { command: "k" }, forbidden: { command: "f" } }).values()].map((record) => {
      // Both were started from the file that is now broken mid-save.
      record.from(source("/home/u/.cursor/mcp.json"));
      return record;
    });

  it("keeps the servers of a broken file, but never one a policy now forbids", () => {
    const broken = { path: "/home/u/.cursor/mcp.json", message: "invalid JSON" };
    const discovery = { configs: {}, sources: {}, errors: [broken], needsApproval: [] };
    expect(Object.keys(keepBrokenFiles(discovery, views()).configs).sort()).toEqual(["forbidden", "kept"]);
    const blocked = [
      {
        name: "forbidden",
        // The same name, defined in another file that still reads, and forbidden there.
        source: source("/home/u/.codeium/windsurf/mcp_config.json"),
        policy: "mcp-rt" as const,
        rule: 'deniedMcpServers: { "serverName": "forbidden" }',
        policyFile: "/etc/mcp-rt/policy.json",
      },
    ];
    expect(Object.keys(keepBrokenFiles({ ...discovery, blocked }, views()).configs)).toEqual(["kept"]);
  });
});
