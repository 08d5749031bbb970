import type { LoadConfigsResult, MCPServerState } from "@mcp-rt/manager";
import { describe, expect, it } from "vitest";
import { buildServerList, formatServerList } from "../src/mcp-server-list.js";

const where = { cwd: "/project", homeDir: "/home/me" };
const source = {
  provider: "cursor",
  providerName: "Cursor",
  path: "/project/.cursor/mcp.json",
  level: "project",
} as const;

function listOf(states: MCPServerState[]): string {
  const discovery = {
    configs: Object.fromEntries(states.map((state) => [state.name, { command: "node" }])),
    sources: Object.fromEntries(states.map((state) => [state.name, source])),
    errors: [],
    shadowed: [],
    disabled: [],
    filtered: [],
    needsApproval: [],
    exaApiKeys: [],
  } as unknown as LoadConfigsResult;
  return formatServerList(buildServerList({ discovery, states, where, heldBack: () => "" }), where);
}

describe("/mcp list", () => {
  it("says how long a connected server waited for its turn to start, when it waited", () => {
    const text = listOf([
      { name: "first", status: "connected", toolCount: 1, deferred: false, connectedMs: 400 },
      {
        name: "second",
        status: "connected",
        toolCount: 1,
        deferred: false,
        connectedMs: 1300,
        queuedMs: 900,
      },
    ]);
    expect(text).toMatch(/first .*400 ms(?! \()/);
    expect(text).toContain("1300 ms (900 ms of it waiting its turn)");
  });
});
