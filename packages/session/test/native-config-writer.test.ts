import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpRtError } from "@mcp-rt/manager";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNativeConfigWriter, type NativeConfigWriter } from "../src/native-config-writer.js";

let root: string;
let home: string;
let cwd: string;
let writer: NativeConfigWriter;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-rt-native-"));
  home = join(root, "home");
  cwd = join(root, "project");
  await mkdir(home);
  await mkdir(cwd);
  writer = createNativeConfigWriter({ cwd, homeDir: home });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const mode = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;
const json = async (path: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(path, "utf8"));

async function rejection(promise: Promise<unknown>): Promise<McpRtError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!McpRtError.isInstance(error)) throw new Error(`expected an McpRtError, got ${String(error)}`);
  return error;
}

describe("createNativeConfigWriter", () => {
  it("adds and removes servers in a fresh user file with modes 0700/0600", async () => {
    const path = await writer.addServer({
      name: "docs",
      config: { url: "https://example.com/mcp", type: "http" },
      scope: "user",
    });
    expect(path).toBe(join(home, ".mcp-rt", "mcp.json"));
    expect(await mode(join(home, ".mcp-rt"))).toBe(0o700);
    expect(await mode(path)).toBe(0o600);
    await writer.addServer({
      name: "echo",
      config: { command: "node", args: ["echo.js"], env: { A: "1" } },
      scope: "user",
    });
    expect(await json(path)).toEqual({
      mcpServers: {
        docs: { url: "https://example.com/mcp", type: "http" },
        echo: { command: "node", args: ["echo.js"], env: { A: "1" } },
      },
    });
    await writer.removeServer("docs", "user");
    expect(await json(path)).toEqual({
      mcpServers: { echo: { command: "node", args: ["echo.js"], env: { A: "1" } } },
    });
    expect(await mode(path)).toBe(0o600);
    expect(await readdir(join(home, ".mcp-rt"))).toEqual(["mcp.json"]);
  });

  it("keeps unknown fields, top-level and inside entries, and makes a loose file 0600", async () => {
    const path = join(cwd, ".mcp-rt", "mcp.json");
    await mkdir(join(cwd, ".mcp-rt"));
    const original = {
      $schema: "https://example.com/schema.json",
      theme: { color: "blue" },
      mcpServers: { kept: { command: "kept-server", vendorExtra: { x: [1, 2] } } },
      disabledServers: ["someone-else"],
    };
    await writeFile(path, JSON.stringify(original), { mode: 0o644 });
    await writer.addServer({ name: "added", config: { command: "added-server" }, scope: "project" });
    const written = await json(path);
    expect(written).toEqual({
      ...original,
      mcpServers: { ...original.mcpServers, added: { command: "added-server" } },
    });
    expect(await mode(path)).toBe(0o600);
    await writer.removeServer("added", "project");
    expect(await json(path)).toEqual(original);
  });

  it("refuses a name that is taken, leaving the file as it was", async () => {
    const path = await writer.addServer({ name: "docs", config: { command: "one" }, scope: "user" });
    const before = await readFile(path, "utf8");
    const error = await rejection(
      writer.addServer({ name: "docs", config: { command: "two" }, scope: "user" }),
    );
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain(path);
    expect(await readFile(path, "utf8")).toBe(before);
  });

  it("rejects an invalid config or name without creating a file", async () => {
    const invalid = await rejection(
      writer.addServer({ name: "bad", config: { url: "ftp://nope" }, scope: "user" }),
    );
    expect(invalid.code).toBe("CONFIG_INVALID");
    const badName = await rejection(
      writer.addServer({ name: "no spaces", config: { command: "x" }, scope: "user" }),
    );
    expect(badName.message).toMatch(/not a valid server name/);
    await expect(stat(join(home, ".mcp-rt"))).rejects.toThrow();
  });

  it("never overwrites a file it cannot parse", async () => {
    await mkdir(join(home, ".mcp-rt"));
    const path = join(home, ".mcp-rt", "mcp.json");
    await writeFile(path, '{ "mcpServers": { "a": ');
    const error = await rejection(writer.addServer({ name: "b", config: { command: "b" }, scope: "user" }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain(path);
    expect(await readFile(path, "utf8")).toBe('{ "mcpServers": { "a": ');
    await writeFile(path, JSON.stringify({ mcpServers: [] }));
    expect((await rejection(writer.disableServer("a", "user"))).message).toMatch(
      /mcpServers: must be an object/,
    );
  });

  it("removing a server that is not in the file is an UNKNOWN_SERVER error", async () => {
    const error = await rejection(writer.removeServer("ghost", "project"));
    expect(error.code).toBe("UNKNOWN_SERVER");
    expect(error.message).toContain(join(cwd, ".mcp-rt", "mcp.json"));
  });

  it("disables a native entry with enabled:false and another client's server through disabledServers", async () => {
    const path = await writer.addServer({ name: "mine", config: { command: "mine" }, scope: "user" });
    await writer.disableServer("mine", "user");
    await writer.disableServer("from-cursor", "user");
    await writer.disableServer("from-cursor", "user");
    expect(await json(path)).toEqual({
      mcpServers: { mine: { command: "mine", enabled: false } },
      disabledServers: ["from-cursor"],
    });
    expect(await writer.enableServer("mine")).toEqual([path]);
    expect(await writer.enableServer("from-cursor")).toEqual([path]);
    expect(await writer.enableServer("from-cursor")).toEqual([]);
    expect(await json(path)).toEqual({ mcpServers: { mine: { command: "mine" } }, disabledServers: [] });
  });

  it("enable clears disabledServers in both native files", async () => {
    await writer.disableServer("x", "user");
    await writer.disableServer("x", "project");
    const changed = await writer.enableServer("x");
    expect(changed.sort()).toEqual(
      [join(cwd, ".mcp-rt", "mcp.json"), join(home, ".mcp-rt", "mcp.json")].sort(),
    );
    expect((await writer.read("user")).disabledServers).toEqual([]);
    expect((await writer.read("project")).disabledServers).toEqual([]);
  });

  it("lets concurrent writes to one file all land", async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        writer.addServer({ name: `s${i}`, config: { command: `c${i}` }, scope: "user" }),
      ),
    );
    const { mcpServers, exists } = await writer.read("user");
    expect(exists).toBe(true);
    expect(Object.keys(mcpServers).sort()).toEqual(["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"]);
    expect(await readdir(join(home, ".mcp-rt"))).toEqual(["mcp.json"]);
  });

  it("reads a missing file as empty", async () => {
    expect(await writer.read("project")).toEqual({
      path: join(cwd, ".mcp-rt", "mcp.json"),
      exists: false,
      mcpServers: {},
      disabledServers: [],
      alwaysLoadServers: [],
    });
  });
});
