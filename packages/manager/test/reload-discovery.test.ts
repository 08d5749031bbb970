import { mkdirSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createTrustStore, type LoadConfigsOptions } from "@mcp-rt/config";
import { echoServer, isProcessAlive } from "@mcp-rt/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { useTempDir } from "../../../test-support/temp-dir.js";
import type { MCPManager } from "../src/index.js";
import { useManagers } from "./helpers.js";

const manager = useManagers();
const tempDir = useTempDir("mcp-rt-reload-discovery-");

let cwd: string;
let file: string;
let discovery: LoadConfigsOptions;
beforeEach(() => {
  const root = tempDir();
  cwd = join(root, "project");
  const homeDir = join(root, "home");
  mkdirSync(join(cwd, ".mcp-rt"), { recursive: true });
  mkdirSync(homeDir);
  file = join(cwd, ".mcp-rt", "mcp.json");
  // Reloads of the project's own files, trusted on purpose (one test brings its own store).
  discovery = { homeDir, env: {}, trust: "all" };
});

const writeServers = (servers: Record<string, unknown>, path = file) =>
  writeFile(path, JSON.stringify({ mcpServers: servers }, null, 2));
const pidOf = async (m: MCPManager, name: string): Promise<number> => (await m.waitForConnection(name)).pid!;

describe("discoverAndReload: a file being edited keeps what runs", () => {
  it("keeps every server of a file that does not parse, says where, and applies the file once it is fixed", async () => {
    await writeServers({ a: echoServer(), b: echoServer() });
    const m = manager({}, cwd);
    await m.discoverAndConnect(discovery);
    const a = await pidOf(m, "a");
    await writeFile(file, '{ "mcpServers": { "a": ');
    const broken = await m.discoverAndReload(discovery);
    expect(broken).toMatchObject({ added: [], removed: [], restarted: [], unchanged: ["a", "b"] });
    expect(broken.problems.map((problem) => problem.error.message)).toEqual([
      expect.stringMatching(new RegExp(`^${file.replace(/[.]/g, "\\.")}:1:\\d+: invalid JSON`)),
    ]);
    expect(await pidOf(m, "a")).toBe(a);

    await writeServers({ a: echoServer(), b: echoServer({ tools: 1 }) });
    const fixed = await m.discoverAndReload(discovery);
    expect(fixed).toMatchObject({ restarted: ["b"], unchanged: ["a"], problems: [] });
    expect(await pidOf(m, "a")).toBe(a);
  });

  it("keeps a server whose entry became invalid; a removed file removes its servers", async () => {
    await writeServers({ a: echoServer(), b: echoServer() });
    const m = manager({}, cwd);
    await m.discoverAndConnect(discovery);
    const b = await pidOf(m, "b");
    await writeServers({ a: echoServer(), b: { ...echoServer(), command: 42 } });
    const invalid = await m.discoverAndReload(discovery);
    expect(invalid).toMatchObject({ restarted: [], unchanged: ["a", "b"] });
    expect(invalid.problems).toEqual([expect.objectContaining({ kind: "file", server: "b" })]);
    expect(await pidOf(m, "b")).toBe(b);

    await rm(file);
    const gone = await m.discoverAndReload(discovery);
    expect(gone).toMatchObject({ removed: ["a", "b"], unchanged: [] });
    expect(isProcessAlive(b)).toBe(false);
  });

  it("changes nothing when discovery throws", async () => {
    await writeServers({ a: echoServer() });
    const m = manager({}, cwd);
    await m.discoverAndConnect(discovery);
    const result = await m.discoverAndReload({
      ...discovery,
      discover: async () => {
        throw new Error("disk on fire");
      },
    });
    expect(result).toMatchObject({ removed: [], unchanged: ["a"], connectedServers: ["a"] });
    expect(result.problems).toEqual([expect.objectContaining({ kind: "discovery" })]);
  });

  it("stops project servers whose trust hash changed, but not while a project file is broken", async () => {
    const trust = createTrustStore(join(tempDir(), "trust.json"));
    const project = join(cwd, ".mcp.json");
    await writeServers({ proj: echoServer(), other: echoServer() }, project);
    const options = { ...discovery, trust };
    const m = manager({}, cwd);
    const first = await m.discoverAndConnect(options);
    const asked = first.discovery!.projectTrust!;
    await trust.approve(asked.projectDir, asked.hash);
    expect(await m.discoverAndReload(options)).toMatchObject({ added: ["proj", "other"] });

    const pid = await pidOf(m, "proj");
    await writeFile(project, "{");
    const midSave = await m.discoverAndReload(options);
    expect(midSave).toMatchObject({ added: [], removed: [], unchanged: ["proj", "other"] });

    await writeServers({ proj: echoServer(), other: echoServer({ tools: 1 }) }, project);
    const changed = await m.discoverAndReload(options);
    expect(changed).toMatchObject({ removed: ["proj", "other"], unchanged: [] });
    expect(changed.discovery?.needsApproval.map((entry) => entry.name)).toEqual(["proj", "other"]);
    expect(isProcessAlive(pid)).toBe(false);
  });
});
