import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileStore, MCPToolCache } from "@mcp-rt/cache";
import { MCPManager, type MCPServerState, type MCPStdioServerConfig } from "@mcp-rt/manager";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realServers } from "../src/real-servers.js";

// Sits between the client and a real server: counts its starts, and the `server/discover`
// and `initialize` requests it is sent, in a log of its own, and passes everything through.
const COUNTER = `
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
const [log, command, ...args] = process.argv.slice(2);
appendFileSync(log, "spawn\\n");
const child = spawn(command, args, { stdio: ["pipe", "inherit", "inherit"] });
let pending = "";
process.stdin.on("data", (chunk) => {
  pending += chunk;
  for (let end = pending.indexOf("\\n"); end >= 0; end = pending.indexOf("\\n")) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    const method = /"method":"(server\\/discover|initialize)"/.exec(line)?.[1];
    if (method) appendFileSync(log, (method === "initialize" ? "initialize" : "probe") + "\\n");
  }
  child.stdin.write(chunk);
});
process.stdin.on("end", () => child.stdin.end());
child.on("exit", (code) => process.exit(code ?? 0));
process.on("SIGTERM", () => child.kill("SIGTERM"));
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "mcp-rt-real-eras-"));
  writeFileSync(join(dir, "counter.mjs"), COUNTER);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function counted(name: string, config: MCPStdioServerConfig): MCPStdioServerConfig {
  return {
    ...config,
    args: [join(dir, "counter.mjs"), join(dir, `${name}.log`), config.command, ...(config.args ?? [])],
  };
}

function counts(name: string): { spawn: number; probe: number; initialize: number } {
  const lines = readFileSync(join(dir, `${name}.log`), "utf8").split("\n");
  const count = (word: string) => lines.filter((line) => line === word).length;
  return { spawn: count("spawn"), probe: count("probe"), initialize: count("initialize") };
}

/** One start of the three servers with the cache in `dir`, until every one is connected. */
async function start(configs: Record<string, MCPStdioServerConfig>): Promise<MCPServerState[]> {
  const cache = new MCPToolCache(createFileStore(join(dir, "cache")), {
    key: "mcp-rt-bench-eras-0123456789abcdef",
  });
  const manager = new MCPManager(dir, { cache });
  try {
    await manager.connectServers(configs);
    for (const name of Object.keys(configs)) await manager.waitForConnection(name);
    return manager.getServerStates();
  } finally {
    await manager.disconnectAll();
    await cache.close();
  }
}

describe("real servers from npm land in their era, with one process and, on a second start, no probe", () => {
  it("context7 4.1.1 on 2026-07-28; chrome-devtools-mcp and server-everything on 2025-11-25", async () => {
    const real = realServers(dir);
    const configs = {
      context7: counted("context7", real.context7 as MCPStdioServerConfig),
      devtools: counted("devtools", real.devtools as MCPStdioServerConfig),
      everything: counted("everything", real.everything as MCPStdioServerConfig),
    };
    const eras = (states: MCPServerState[]) =>
      Object.fromEntries(
        states.map((state) => [
          state.name,
          state.protocol && [state.protocol.protocolVersion, state.protocol.era, state.protocol.decision.how],
        ]),
      );

    const cold = await start(configs);
    expect(eras(cold)).toEqual({
      context7: ["2026-07-28", "modern", "probe"],
      devtools: ["2025-11-25", "legacy", "probe"],
      everything: ["2025-11-25", "legacy", "probe"],
    });
    expect(counts("context7")).toEqual({ spawn: 1, probe: 1, initialize: 0 });
    expect(counts("devtools")).toEqual({ spawn: 1, probe: 1, initialize: 1 });
    expect(counts("everything")).toEqual({ spawn: 1, probe: 1, initialize: 1 });

    const warm = await start(configs);
    expect(eras(warm)).toEqual({
      context7: ["2026-07-28", "modern", "stored"],
      devtools: ["2025-11-25", "legacy", "stored"],
      everything: ["2025-11-25", "legacy", "stored"],
    });
    expect(counts("context7")).toEqual({ spawn: 2, probe: 1, initialize: 0 });
    expect(counts("devtools")).toEqual({ spawn: 2, probe: 1, initialize: 2 });
    expect(counts("everything")).toEqual({ spawn: 2, probe: 1, initialize: 2 });
  }, 120_000);
});
