import { execFileSync } from "node:child_process";
import { chmod, mkdir, open, symlink } from "node:fs/promises";
import { join } from "node:path";
import type { ConfigIssue } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { type FixtureTree, useFixtureTrees } from "./fixture-tree.js";

const fixture = useFixtureTrees();

// A missing comma on line 4, column 5 (before `"b"`), whatever the map's key is.
const jsonMissingComma = (key: string) =>
  `{\n  "${key}": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n`;

type Place = "home" | "project";
const jsonFiles: Array<[string, Place, string, "JSON" | "JSON (with comments)"]> = [
  ["mcp-rt user", "home", ".mcp-rt/mcp.json", "JSON"],
  ["mcp-rt project", "project", ".mcp-rt/mcp.json", "JSON"],
  ["Claude Code user", "home", ".claude.json", "JSON"],
  ["Claude Code project", "project", ".mcp.json", "JSON"],
  ["Claude Desktop", "home", ".config/Claude/claude_desktop_config.json", "JSON"],
  ["Gemini CLI user", "home", ".gemini/settings.json", "JSON (with comments)"],
  ["Gemini CLI project", "project", ".gemini/settings.json", "JSON (with comments)"],
  ["Cursor user", "home", ".cursor/mcp.json", "JSON"],
  ["Cursor project", "project", ".cursor/mcp.json", "JSON"],
  ["Windsurf user", "home", ".codeium/windsurf/mcp_config.json", "JSON"],
  ["Windsurf project", "project", ".windsurf/mcp_config.json", "JSON"],
  ["VS Code user", "home", ".config/Code/User/mcp.json", "JSON (with comments)"],
  ["VS Code project", "project", ".vscode/mcp.json", "JSON (with comments)"],
];

const write = (tree: FixtureTree, place: Place, relative: string, content: string | object) =>
  place === "home" ? tree.writeHome(relative, content) : tree.writeProject(relative, content);

/** A healthy server in another file, which must load whatever else is broken. */
async function withSurvivor(tree: FixtureTree, brokenRelative: string): Promise<void> {
  const other = brokenRelative === ".cursor/mcp.json" ? ".mcp-rt/mcp.json" : ".cursor/mcp.json";
  await tree.writeHome(other, { mcpServers: { survivor: { command: "still-here" } } });
}

describe("malformed files", () => {
  it.each(jsonFiles)(
    "reports a syntax error in the %s file with file, line and column",
    async (_label, place, relative, kind) => {
      const tree = await fixture();
      const key = relative.includes("Code") || relative.startsWith(".vscode") ? "servers" : "mcpServers";
      const file = await write(tree, place, relative, jsonMissingComma(key));
      await withSurvivor(tree, relative);
      const result = await tree.load();
      expect(result.configs.survivor).toEqual({ command: "still-here" });
      expect(result.errors).toEqual<ConfigIssue[]>([
        {
          path: file,
          code: "CONFIG_INVALID",
          line: 4,
          column: 5,
          message: `${file}:4:5: invalid ${kind}: expected "," between entries; fix the file's syntax there`,
        },
      ]);
    },
  );

  it.each([
    ["user", "home"],
    ["project", "project"],
  ] as const)(
    "reports a syntax error in the Codex %s TOML file with file, line and column",
    async (_label, place) => {
      const tree = await fixture();
      const file = await write(
        tree,
        place,
        ".codex/config.toml",
        '[mcp_servers.a]\ncommand = "x"\n\n[mcp_servers.a]\n',
      );
      await withSurvivor(tree, ".codex/config.toml");
      const result = await tree.load();
      expect(result.configs.survivor).toEqual({ command: "still-here" });
      expect(result.errors).toEqual<ConfigIssue[]>([
        {
          path: file,
          code: "CONFIG_INVALID",
          line: 4,
          column: 2,
          message: `${file}:4:2: invalid TOML: trying to redefine an already defined table or value; fix the file's syntax there`,
        },
      ]);
    },
  );

  it("reports an unterminated TOML string where it starts", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(
      ".codex/config.toml",
      'model = "o3"\n[mcp_servers.a]\ncommand = "npx\n',
    );
    const [issue] = (await tree.load()).errors;
    expect(issue).toMatchObject({ path: file, line: 3, code: "CONFIG_INVALID" });
    expect(issue?.message).toMatch(new RegExp(`^${escapeRegExp(file)}:3:\\d+: invalid TOML: `));
  });

  it("rejects trailing commas and comments in strict JSON files but accepts them in JSONC files", async () => {
    const tree = await fixture();
    const withComma = '{\n  "mcpServers": {\n    "a": { "command": "x" },\n  }\n}\n';
    const cursor = await tree.writeHome(".cursor/mcp.json", withComma);
    const claude = await tree.writeProject(".mcp.json", '// project servers\n{ "mcpServers": {} }');
    await tree.writeHome(".gemini/settings.json", withComma.replace('"a"', '// comment\n    "g"'));
    const result = await tree.load();
    expect(result.configs).toEqual({ g: { command: "x" } });
    expect(result.errors.map((issue) => issue.message)).toEqual([
      `${claude}:1:1: invalid JSON: comments are not allowed in this file; fix the file's syntax there`,
      `${cursor}:4:3: invalid JSON: expected a property name in double quotes (remove the trailing comma before it); fix the file's syntax there`,
    ]);
  });

  it.each([
    ["an unterminated string", '{ "mcpServers": { "a": { "command": "x } } }', 1, 37, "unterminated string"],
    ["a bare word", '{ "mcpServers": {\n  "a": { "command": npx }\n} }', 2, 21, "unexpected character"],
    [
      "an unclosed object",
      '{ "mcpServers": {\n  "a": { "command": "x" }\n',
      3,
      1,
      'expected "}" to close the object',
    ],
    [
      "content after the end",
      '{ "mcpServers": {} }\n{ "more": 1 }',
      2,
      1,
      "unexpected content after the end of the document",
    ],
  ])("describes %s", async (_label, text, line, column, what) => {
    const tree = await fixture();
    const file = await tree.writeHome(".mcp-rt/mcp.json", text);
    expect((await tree.load()).errors).toEqual([
      {
        path: file,
        code: "CONFIG_INVALID",
        line,
        column,
        message: `${file}:${line}:${column}: invalid JSON: ${what}; fix the file's syntax there`,
      },
    ]);
  });

  it("accepts a byte-order mark and treats an empty file as no servers", async () => {
    const tree = await fixture();
    await tree.writeHome(".cursor/mcp.json", '\uFEFF{ "mcpServers": { "bom": { "command": "x" } } }');
    await tree.writeHome(".mcp-rt/mcp.json", "  \n");
    await tree.writeHome(".codex/config.toml", "");
    const result = await tree.load();
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({ bom: { command: "x" } });
  });

  it("keeps a __proto__ key of a strict JSON file as an ordinary server name", async () => {
    const tree = await fixture();
    await tree.writeHome(
      ".claude.json",
      '{ "mcpServers": { "__proto__": { "command": "x" }, "b": { "command": "y" } } }',
    );
    const result = await tree.load();
    expect(Object.keys(result.configs).sort()).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(result.configs)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).command).toBeUndefined();
  });

  it("survives nesting deep enough to exhaust the parser", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".mcp-rt/mcp.json", `{"mcpServers": {"a": ${"[".repeat(200_000)}}}`);
    await withSurvivor(tree, ".mcp-rt/mcp.json");
    const result = await tree.load();
    expect(result.configs.survivor).toBeDefined();
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ path: file, code: "CONFIG_INVALID" });
    expect(result.errors[0]?.message).toContain("fix the file");
  });
});

describe("unreadable files", () => {
  it("reports a folder where a config file should be, and loads the rest", async () => {
    const tree = await fixture();
    const path = join(tree.home, ".cursor", "mcp.json");
    await mkdir(path, { recursive: true });
    await withSurvivor(tree, ".cursor/mcp.json");
    const result = await tree.load();
    expect(result.configs.survivor).toBeDefined();
    expect(result.errors).toEqual([
      {
        path,
        code: "CONFIG_UNREADABLE",
        message: expect.stringMatching(
          new RegExp(
            `^${escapeRegExp(path)}: is a folder where a config file is expected; remove or rename the folder$`,
          ),
        ),
      },
    ]);
  });

  it.skipIf(process.getuid?.() === 0)("reports a file without read permission", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".gemini/settings.json", { mcpServers: { a: { command: "x" } } });
    await chmod(file, 0o000);
    const result = await tree.load();
    expect(result.errors).toEqual([expect.objectContaining({ path: file, code: "CONFIG_UNREADABLE" })]);
    expect(result.errors[0]?.message).toContain("EACCES");
  });

  const unix = process.platform !== "win32";

  it.runIf(unix)("does not wait on a named pipe where a config file should be", async () => {
    const tree = await fixture();
    const path = join(tree.home, ".cursor", "mcp.json");
    await mkdir(join(tree.home, ".cursor"), { recursive: true });
    execFileSync("mkfifo", [path]);
    await withSurvivor(tree, ".cursor/mcp.json");
    const started = Date.now();
    const result = await tree.load();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.configs.survivor).toBeDefined();
    expect(result.errors).toEqual([
      { path, code: "CONFIG_UNREADABLE", message: expect.stringContaining("is not a regular file") },
    ]);
  });

  it.runIf(unix)("does not read a device (a link to /dev/zero) where a config file should be", async () => {
    const tree = await fixture();
    const path = join(tree.home, ".gemini", "settings.json");
    await mkdir(join(tree.home, ".gemini"), { recursive: true });
    await symlink("/dev/zero", path);
    const result = await tree.load();
    expect(result.errors).toEqual([
      { path, code: "CONFIG_UNREADABLE", message: expect.stringContaining("is not a regular file") },
    ]);
  });

  it("does not read a file larger than MAX_CONFIG_FILE_BYTES", async () => {
    const tree = await fixture();
    const path = await tree.writeHome(".claude.json", "");
    const handle = await open(path, "r+");
    await handle.truncate(256 * 1024 * 1024 + 1); // sparse: nothing is written
    await handle.close();
    await withSurvivor(tree, ".claude.json");
    const result = await tree.load();
    expect(result.configs.survivor).toBeDefined();
    expect(result.errors).toEqual([
      { path, code: "CONFIG_UNREADABLE", message: expect.stringContaining("MiB a config file may have") },
    ]);
  });

  it.runIf(unix)("does not wait on a named pipe given as a server's envFile", async () => {
    const tree = await fixture();
    execFileSync("mkfifo", [join(tree.project, "env.pipe")]);
    await tree.writeProject(".vscode/mcp.json", {
      servers: {
        a: { type: "stdio", command: "x", envFile: "env.pipe" },
        b: { type: "stdio", command: "y" },
      },
    });
    const result = await tree.load();
    expect(Object.keys(result.configs)).toEqual(["b"]);
    expect(result.errors).toEqual([expect.objectContaining({ server: "a", code: "CONFIG_UNREADABLE" })]);
    expect(result.errors[0]?.message).toContain("is not a regular file");
  });

  it("treats a path through a regular file (ENOTDIR) as missing", async () => {
    const tree = await fixture();
    await tree.writeHome(".codeium", "a file, not a folder");
    expect((await tree.load()).errors).toEqual([]);
  });
});

describe("wrong shapes", () => {
  it.each([
    [
      "a top-level array",
      ".cursor/mcp.json",
      [{ command: "x" }],
      'expected an object at the top level, got [{"command":"x"}]',
    ],
    [
      "a top-level string",
      ".mcp-rt/mcp.json",
      "just text",
      'expected an object at the top level, got "just text"',
    ],
    [
      "mcpServers as an array",
      ".claude.json",
      { mcpServers: [{ name: "a", command: "x" }] },
      '"mcpServers" must be an object mapping server names to their configs, got [{"name":"a","command":"x"}]',
    ],
    [
      "VS Code servers as a string",
      ".config/Code/User/mcp.json",
      { servers: "none" },
      '"servers" must be an object mapping server names to their configs, got "none"',
    ],
    [
      "Codex mcp_servers as a number",
      ".codex/config.toml",
      "mcp_servers = 5\n",
      '"mcp_servers" must be an object mapping server names to their configs, got 5',
    ],
  ])("reports %s against the file", async (_label, relative, content, message) => {
    const tree = await fixture();
    const file = await tree.writeHome(
      relative,
      typeof content === "string" && !relative.endsWith(".toml") ? JSON.stringify(content) : content,
    );
    const result = await tree.load();
    expect(result.errors).toEqual([{ path: file, code: "CONFIG_INVALID", message: `${file}: ${message}` }]);
  });

  it("names the local-scope path in Claude's file", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".claude.json", {
      projects: { [tree.project]: { mcpServers: "oops" } },
    });
    expect((await tree.load()).errors[0]?.message).toBe(
      `${file}: "projects[${JSON.stringify(tree.project)}].mcpServers" must be an object mapping server names to their configs, got "oops"`,
    );
  });

  it("reports an entry that is not an object under its own name, and loads its neighbours", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".cursor/mcp.json", {
      mcpServers: { text: "npx server", list: ["npx"], nothing: null, fine: { command: "npx" } },
    });
    const result = await tree.load();
    expect(result.configs).toEqual({ fine: { command: "npx" } });
    expect(result.errors.map((issue) => [issue.path, issue.server, issue.code])).toEqual([
      [file, "text", "CONFIG_INVALID"],
      [file, "list", "CONFIG_INVALID"],
      [file, "nothing", "CONFIG_INVALID"],
    ]);
    expect(result.errors[2]?.message).toBe(
      'servers.nothing: must be an object with "command" (a local server) or "url" (a remote server), got null',
    );
  });

  it("reports every invalid entry with the file and server name", async () => {
    const tree = await fixture();
    const file = await tree.writeProject(".mcp-rt/mcp.json", {
      mcpServers: { both: { command: "x", url: "https://x.dev" }, slow: { command: "x", timeout: -5 } },
    });
    expect((await tree.load()).errors).toEqual([
      {
        path: file,
        server: "both",
        code: "CONFIG_INVALID",
        message:
          'servers.both: has both "command" and "url"; keep "command" to start a local server, or "url" to reach a remote one',
      },
      {
        path: file,
        server: "slow",
        code: "CONFIG_INVALID",
        message: "servers.slow.timeout: must be a positive whole number of milliseconds, got -5",
      },
    ]);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
