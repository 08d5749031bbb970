import type { MCPServerConfig } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { planReload } from "../src/fleet/reload-plan.js";
import { ServerTable } from "../src/fleet/server-table.js";
import type { Attempt } from "../src/server/attempt.js";

/** A table whose servers `started` were started (an attempt, no process) and `known` only remembered. */
function tableOf(started: Record<string, MCPServerConfig>, known: Record<string, MCPServerConfig> = {}) {
  const table = new ServerTable();
  for (const [name, config] of Object.entries(started))
    table.ensure(name, config).start({ config } as Attempt);
  for (const [name, config] of Object.entries(known)) table.ensure(name, config);
  return table;
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
      table,
      configs,
      differs: async (record, config) => JSON.stringify(record.config) !== JSON.stringify(config),
    });
    expect(plan.change).toEqual({
      added: ["off", "fresh"],
      removed: ["gone"],
      restarted: ["changed"],
      unchanged: ["same"],
    });
    expect(plan.stop.map((record) => record.name).sort()).toEqual(["changed", "gone", "off"]);
    expect(Object.keys(plan.start).sort()).toEqual(["changed", "fresh", "off"]);
    expect(plan.keep.map((record) => record.name)).toEqual(["same"]);
    // Computing the plan changed nothing: every record is still in the table, in its phase.
    expect(table.names().sort()).toEqual(["changed", "gone", "off", "same"]);
    expect(table.get("gone")?.phase).toBe("connecting");
  });

  it("restarts every started server with `all`, without asking whether it differs", async () => {
    const table = tableOf({ a: { command: "a" }, b: { command: "b" } });
    const plan = await planReload({
      table,
      configs: { a: { command: "a" }, b: { command: "b" } },
      all: true,
      differs: () => Promise.reject(new Error("not asked")),
    });
    expect(plan.change.restarted).toEqual(["a", "b"]);
    expect(plan.change.unchanged).toEqual([]);
  });
});
