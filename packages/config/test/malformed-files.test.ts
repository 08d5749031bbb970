import type { ConfigIssue } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { escapeRegExp, type Place, useFixtureTrees, withSurvivor, writeIn } from "./helpers.js";

const fixture = useFixtureTrees();

// A missing comma on line 4, column 5 (before `"b"`), whatever the map's key is.
const jsonMissingComma = (key: string) =>
  `{\n  "${key}": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n`;

const jsonFiles: Array<[string, Place, string, "JSON" | "JSON (with comments)"]> = [
  ["mcp-rt user", "home", ".mcp-rt/mcp.json", "JSON"],
  ["mcp-rt project", "project", ".mcp-rt/mcp.json", "JSON"],
  ["Claude Code user", "home", ".claude.json", "JSON"],
  ["Claude Code project", "project", ".mcp.json", "JSON"],
  ["Claude Desktop", "home", ".config/Claude/claude_desktop_config.json", "JSON"],
  ["Antigravity CLI", "home", ".gemini/config/mcp_config.json", "JSON"],
  ["Antigravity IDE", "home", ".gemini/antigravity/mcp_config.json", "JSON"],
  ["Gemini CLI user", "home", ".gemini/settings.json", "JSON (with comments)"],
  ["Gemini CLI project", "project", ".gemini/settings.json", "JSON (with comments)"],
  ["Cursor user", "home", ".cursor/mcp.json", "JSON"],
  ["Cursor project", "project", ".cursor/mcp.json", "JSON"],
  ["Windsurf user", "home", ".codeium/windsurf/mcp_config.json", "JSON"],
  ["Windsurf project", "project", ".windsurf/mcp_config.json", "JSON"],
  ["VS Code user", "home", ".config/Code/User/mcp.json", "JSON (with comments)"],
  ["VS Code project", "project", ".vscode/mcp.json", "JSON (with comments)"],
];

describe("malformed files", () => {
  it.each(jsonFiles)(
    "reports a syntax error in the %s file with file, line and column",
    async (_label, place, relative, kind) => {
      const tree = await fixture();
      const key = relative.includes("Code") || relative.startsWith(".vscode") ? "servers" : "mcpServers";
      const file = await writeIn(tree, place, relative, jsonMissingComma(key));
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
      const file = await writeIn(
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
