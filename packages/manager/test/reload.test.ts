import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MCPStdioServerConfig } from "@mcp-rt/config";
import { echoServer, exitServer, isProcessAlive, slowCallServer, waitForProcessExit } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { useTempDir } from "../../../test-support/temp-dir.js";
import type { MCPConfigChange, MCPManager } from "../src/index.js";
import { textOf, useManagers } from "./helpers.js";

const manager = useManagers();
const tempDir = useTempDir("mcp-rt-reload-");

const pidOf = async (m: MCPManager, name: string): Promise<number> => (await m.waitForConnection(name)).pid!;

/** Every `config:changed` payload of a manager. */
function changes(m: MCPManager): MCPConfigChange[] {
  const seen: MCPConfigChange[] = [];
  m.on("config:changed", (change) => seen.push(change));
  return seen;
}

describe("reload: only what changed moves", () => {
  it("restarts the one server whose args changed; the others keep their process and finish their calls", async () => {
    const m = manager();
    const configs = { a: echoServer(), b: echoServer({ tools: 1 }), slow: slowCallServer() };
    await m.connectServers(configs);
    const before = { a: await pidOf(m, "a"), slow: await pidOf(m, "slow"), b: await pidOf(m, "b") };
    const seen = changes(m);
    const slow = m.getTools().find((tool) => tool.name === "mcp_slow_slow")!;
    const call = slow.execute("long", { ms: 600, steps: 3 });

    const result = await m.reload({ configs: { ...configs, b: echoServer({ tools: 2 }) } });
    expect(result).toMatchObject({ added: [], removed: [], restarted: ["b"], unchanged: ["a", "slow"] });
    expect(seen).toEqual([{ added: [], removed: [], restarted: ["b"], unchanged: ["a", "slow"] }]);
    expect(await pidOf(m, "a")).toBe(before.a);
    expect(await pidOf(m, "slow")).toBe(before.slow);
    expect(await pidOf(m, "b")).not.toBe(before.b);
    expect(await waitForProcessExit(before.b, 5000)).toBe(true);
    expect(m.getTools().map((tool) => tool.name)).toContain("mcp_b_tool_1");
    const answer = await call;
    expect(answer.isError, textOf(answer)).toBeUndefined();
  });

  it("adds, removes and renames; with nothing changed it starts nothing and says nothing", async () => {
    const m = manager();
    await m.connectServers({ old: echoServer(), keep: echoServer() });
    const old = await pidOf(m, "old");
    const keep = await pidOf(m, "keep");
    const seen = changes(m);

    const same = await m.reload({ configs: { old: echoServer(), keep: echoServer() } });
    expect(same).toMatchObject({ added: [], removed: [], restarted: [], unchanged: ["old", "keep"] });
    expect(seen).toEqual([]);

    const renamed = await m.reload({ configs: { keep: echoServer(), fresh: echoServer() } });
    expect(renamed).toMatchObject({ added: ["fresh"], removed: ["old"], restarted: [], unchanged: ["keep"] });
    expect(renamed.connectedServers).toEqual(["keep", "fresh"]);
    expect(isProcessAlive(old)).toBe(false);
    expect(await pidOf(m, "keep")).toBe(keep);
    expect(m.getServerStates().map((state) => state.name)).toEqual(["keep", "fresh"]);
    expect(m.getTools().map((tool) => tool.name)).toEqual(["mcp_keep_echo", "mcp_fresh_echo"]);

    const off = await m.reload({
      configs: { keep: echoServer(), fresh: { ...echoServer(), enabled: false } },
    });
    expect(off).toMatchObject({ removed: ["fresh"], unchanged: ["keep"] });
    expect(m.getConnectionStatus("fresh")).toBe("disconnected");
    const again = await m.reload({ configs: { keep: echoServer(), fresh: echoServer() } });
    expect(again).toMatchObject({ added: ["fresh"], unchanged: ["keep"] });
  });

  it("restarts a server whose !cmd value now prints something else, and only then", async () => {
    const file = join(tempDir(), "token");
    await writeFile(file, "one");
    const withToken: MCPStdioServerConfig = { ...echoServer(), env: { TOKEN: `!cat ${file}` } };
    const m = manager();
    await m.connectServers({ s: withToken, other: echoServer() });
    const first = await pidOf(m, "s");
    expect(await m.reload({ configs: { s: withToken, other: echoServer() } })).toMatchObject({
      restarted: [],
    });
    await writeFile(file, "two");
    const result = await m.reload({ configs: { s: withToken, other: echoServer() } });
    expect(result).toMatchObject({ restarted: ["s"], unchanged: ["other"] });
    expect(await pidOf(m, "s")).not.toBe(first);
  });

  it("leaves a failed server alone, unless asked to retry it; all restarts everything", async () => {
    const m = manager();
    const broken = exitServer(3);
    const { errors } = await m.connectServers({ broken, ok: echoServer() });
    expect(errors.has("broken")).toBe(true);
    const ok = await pidOf(m, "ok");
    expect(await m.reload({ configs: { broken, ok: echoServer() } })).toMatchObject({
      restarted: [],
      unchanged: ["broken", "ok"],
    });
    const retried = await m.reload({ configs: { broken, ok: echoServer() }, retryFailed: true });
    expect(retried).toMatchObject({ restarted: ["broken"], unchanged: ["ok"] });
    expect(retried.errors.get("broken")?.code).toBe("INIT_FAILED");
    const all = await m.reload({ configs: { broken, ok: echoServer() }, all: true });
    expect(all).toMatchObject({ restarted: ["broken", "ok"], unchanged: [] });
    expect(await pidOf(m, "ok")).not.toBe(ok);
  });

  it("runs reloads one at a time, each on what the one before left", async () => {
    const m = manager();
    const [first, second] = await Promise.all([
      m.reload({ configs: { a: echoServer() } }),
      m.reload({ configs: { a: echoServer(), b: echoServer() } }),
    ]);
    expect(first).toMatchObject({ added: ["a"] });
    expect(second).toMatchObject({ added: ["b"], unchanged: ["a"] });
  });
});
