import type { MCPServerConfig } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { planReload } from "../src/fleet/reload-plan.js";
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
