// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are what these tests are about
import {
  type InterpolationSyntax,
  interpolateServerConfig,
  interpolateString,
  type LoadConfigsResult,
} from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { type FixtureTree, useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

describe("interpolateString: editor forms per syntax", () => {
  const options = { env: { A: "a-val", EMPTY: "" }, cwd: "/work/my-app", homeDir: "/home/ann" };

  it.each<[string, InterpolationSyntax, string, string, string[]]>([
    ["${env:VAR}", "cursor", "x-${env:A}", "x-a-val", []],
    ["${env:VAR}", "vscode", "x-${env:A}", "x-a-val", []],
    ["${env:VAR} left as written", "posix", "x-${env:A}", "x-${env:A}", []],
    ["unset ${env:VAR}", "cursor", "${env:NOPE}", "${env:NOPE}", ["NOPE"]],
    ["unset ${env:VAR}", "vscode", "${env:NOPE}", "${env:NOPE}", ["NOPE"]],
    ["set but empty ${env:VAR}", "vscode", "[${env:EMPTY}]", "[]", []],
    ["${workspaceFolder}", "cursor", "${workspaceFolder}/db", "/work/my-app/db", []],
    ["${workspaceFolder}", "vscode", "${workspaceFolder}/db", "/work/my-app/db", []],
    [
      "${workspaceFolder} as a plain variable",
      "posix",
      "${workspaceFolder}/db",
      "${workspaceFolder}/db",
      ["workspaceFolder"],
    ],
    ["${workspaceFolderBasename}", "vscode", "${workspaceFolderBasename}", "my-app", []],
    ["${userHome}", "cursor", "${userHome}/.cache", "/home/ann/.cache", []],
    ["${userHome}", "vscode", "${userHome}/.cache", "/home/ann/.cache", []],
    ["${userHome} as a plain variable", "posix", "${userHome}", "${userHome}", ["userHome"]],
    ["${VAR} in an editor file", "cursor", "${A}", "a-val", []],
    ["${VAR:-default} in an editor file", "vscode", "${NOPE:-d}", "d", []],
    ["${input:id} in Cursor, left as written", "cursor", "${input:key}", "${input:key}", []],
    ["${input:id} in a posix file, left as written", "posix", "${input:key}", "${input:key}", []],
    ["${env:VAR}", "windsurf", "Bearer ${env:A}", "Bearer a-val", []],
    ["unset ${env:VAR}", "windsurf", "${env:NOPE}", "${env:NOPE}", ["NOPE"]],
    [
      "${workspaceFolder} as a plain variable",
      "windsurf",
      "${workspaceFolder}",
      "${workspaceFolder}",
      ["workspaceFolder"],
    ],
    ["$VAR", "gemini", "$A/x and ${A}", "a-val/x and a-val", []],
    ["unset $VAR, left as written", "gemini", "pa$$word $NOPE", "pa$$word $NOPE", []],
    ["${env:VAR} left as written", "gemini", "${env:A}", "${env:A}", []],
    ["$VAR left as written", "posix", "$A", "$A", []],
    ["$VAR left as written", "vscode", "$A", "$A", []],
    ["${pathSeparator} and ${/}", "cursor", "a${pathSeparator}b${/}c", "a/b/c", []],
    ["${pathSeparator} and ${/}", "vscode", "a${pathSeparator}b${/}c", "a/b/c", []],
    ["${/} left as written", "posix", "a${/}b", "a${/}b", []],
    ["${CLAUDE_PROJECT_DIR}", "claude", "${CLAUDE_PROJECT_DIR}/srv.js", "/work/my-app/srv.js", []],
    [
      "${CLAUDE_PROJECT_DIR} as a plain variable",
      "posix",
      "${CLAUDE_PROJECT_DIR}",
      "${CLAUDE_PROJECT_DIR}",
      ["CLAUDE_PROJECT_DIR"],
    ],
  ])("%s (%s)", async (_label, syntax, template, value, missing) => {
    const result = await interpolateString(template, { ...options, syntax });
    expect(result.value).toBe(value);
    expect(result.missing).toEqual(missing);
    expect(result.missingInputs).toBeUndefined();
  });

  it("gives ${pathSeparator} and ${/} the Windows separator on Windows", async () => {
    const result = await interpolateString("${workspaceFolder}${/}db${pathSeparator}x", {
      syntax: "cursor",
      env: {},
      cwd: "C:\\work",
      platform: "win32",
    });
    expect(result.value).toBe("C:\\work\\db\\x");
  });

  it("reports how each unset variable was written", async () => {
    const result = await interpolateString("${env:A1} ${B1} ${env:B1}", { syntax: "vscode", env: {} });
    expect(result.missing).toEqual(["A1", "B1"]);
    expect(result.written).toEqual({ A1: "${env:A1}", B1: "${B1}" });
  });

  it("never expands a value again", async () => {
    const result = await interpolateString("${env:A}", {
      syntax: "vscode",
      env: { A: "${workspaceFolder}" },
      cwd: "/p",
    });
    expect(result).toEqual({ value: "${workspaceFolder}", missing: [] });
  });

  it("answers ${input:id} through resolveInput with the input's definition", async () => {
    const asked: Array<[string, unknown]> = [];
    const definition = { id: "key", type: "promptString", password: true };
    const result = await interpolateString("Bearer ${input:key}/${input:key}/${input:other}", {
      syntax: "vscode",
      env: {},
      inputs: { key: definition },
      resolveInput: async (id, input) => {
        asked.push([id, input]);
        return id === "key" ? "k-123" : undefined;
      },
    });
    expect(result).toEqual({
      value: "Bearer k-123/k-123/${input:other}",
      missing: [],
      missingInputs: ["other"],
    });
    expect(asked).toEqual([
      ["key", definition],
      ["other", undefined],
    ]);
  });

  it("reports ${input:id} without resolveInput, or when it throws", async () => {
    expect(await interpolateString("${input:key}", { syntax: "vscode", env: {} })).toEqual({
      value: "${input:key}",
      missing: [],
      missingInputs: ["key"],
    });
    const throwing = await interpolateString("${input:key}", {
      syntax: "vscode",
      env: {},
      resolveInput: () => {
        throw new Error("cancelled");
      },
    });
    expect(throwing.missingInputs).toEqual(["key"]);
  });

  it("names each unanswered input with the field that uses it", async () => {
    const { missingInputs } = await interpolateServerConfig(
      { url: "https://h/${input:host}", headers: { Authorization: "Bearer ${input:key}" } },
      { syntax: "vscode", env: {} },
    );
    expect(missingInputs).toEqual([
      { input: "host", field: "url" },
      { input: "key", field: "headers.Authorization" },
    ]);
  });
});

interface Provider {
  id: string;
  syntax: InterpolationSyntax;
  write(tree: FixtureTree, servers: Record<string, { command: string; args: string[] }>): Promise<string>;
}

const json = (key: string, home: string) => async (tree: FixtureTree, servers: Record<string, unknown>) =>
  tree.writeHome(home, { [key]: servers });

const providers: Provider[] = [
  { id: "mcp-rt", syntax: "posix", write: json("mcpServers", ".mcp-rt/mcp.json") },
  {
    id: "claude-code",
    syntax: "claude",
    write: (tree, servers) => tree.writeProject(".mcp.json", { mcpServers: servers }),
  },
  {
    id: "claude-desktop",
    syntax: "posix",
    write: json("mcpServers", ".config/Claude/claude_desktop_config.json"),
  },
  {
    id: "codex",
    syntax: "posix",
    write: (tree, servers) =>
      tree.writeHome(
        ".codex/config.toml",
        Object.entries(servers)
          .map(
            ([name, s]) =>
              `[mcp_servers.${name}]\ncommand = ${JSON.stringify(s.command)}\nargs = ${JSON.stringify(s.args)}\n`,
          )
          .join("\n"),
      ),
  },
  { id: "antigravity", syntax: "posix", write: json("mcpServers", ".gemini/config/mcp_config.json") },
  { id: "gemini", syntax: "gemini", write: json("mcpServers", ".gemini/settings.json") },
  { id: "cursor", syntax: "cursor", write: json("mcpServers", ".cursor/mcp.json") },
  { id: "windsurf", syntax: "windsurf", write: json("mcpServers", ".codeium/windsurf/mcp_config.json") },
  { id: "vscode", syntax: "vscode", write: json("servers", ".config/Code/User/mcp.json") },
];

function issueOf(result: LoadConfigsResult, server: string) {
  return result.errors.find((issue) => issue.server === server);
}

describe.each(providers)("expansion in $id files", (provider) => {
  const editor = provider.syntax === "vscode" || provider.syntax === "cursor";
  const envForm = editor || provider.syntax === "windsurf";

  it(`expands ${editor ? "${VAR}, ${VAR:-default}, ${env:VAR}, ${workspaceFolder} and ${userHome}" : envForm ? "${VAR}, ${VAR:-default} and ${env:VAR}" : "${VAR} and ${VAR:-default}"}`, async () => {
    const tree = await fixture();
    const file = await provider.write(tree, {
      plain: { command: "srv", args: ["${A}", "${B:-dflt}", "${env:A}"] },
      editor: { command: "srv", args: ["${workspaceFolder}/x", "${userHome}/y"] },
      unset: { command: "srv", args: ["${NOPE}"] },
      envunset: { command: "srv", args: ["${env:NOPE2}"] },
    });
    const result = await tree.load({ env: { A: "a-val" } });

    expect(result.configs.plain).toEqual({
      command: "srv",
      args: ["a-val", "dflt", envForm ? "a-val" : "${env:A}"],
    });
    expect(result.sources.plain?.provider).toBe(provider.id);
    const unset = issueOf(result, "unset");
    expect(unset).toMatchObject({ path: file, code: "VAR_UNSET" });
    expect(unset?.message).toContain("NOPE");
    expect(unset?.message).toContain(file);

    if (editor) {
      expect(result.configs.editor).toEqual({
        command: "srv",
        args: [`${tree.project}/x`, `${tree.home}/y`],
      });
    } else {
      // Other clients do not know the editors' variables: a plain variable that is unset.
      expect(issueOf(result, "editor")?.message).toContain("workspaceFolder");
    }
    if (envForm) {
      const envUnset = issueOf(result, "envunset");
      expect(envUnset).toMatchObject({ path: file, code: "VAR_UNSET" });
      expect(envUnset?.message).toContain("${env:NOPE2} in args[0]");
    } else {
      // ... and `${env:…}` stays as written.
      expect(result.configs.envunset).toEqual({ command: "srv", args: ["${env:NOPE2}"] });
    }
  });
});

describe("VS Code ${input:id} in loadAllMCPConfigs", () => {
  async function tree() {
    const t = await fixture();
    const file = await t.writeProject(
      ".vscode/mcp.json",
      `{
        // JSONC, as VS Code writes it
        "inputs": [
          { "type": "promptString", "id": "api-key", "description": "API key", "password": true }
        ],
        "servers": {
          "remote": { "type": "http", "url": "https://api.example/mcp", "headers": { "Authorization": "Bearer \${input:api-key}" } },
          "local": { "type": "stdio", "command": "srv", "env": { "KEY": "\${input:api-key}" } },
          "plain": { "type": "stdio", "command": "srv" }
        }
      }`,
    );
    return { t, file };
  }

  it("makes a server that uses an input an error naming it, when there is no resolveInput", async () => {
    const { t, file } = await tree();
    const result = await t.load();
    expect(Object.keys(result.configs)).toEqual(["plain"]);
    for (const name of ["remote", "local"]) {
      const issue = issueOf(result, name);
      expect(issue).toMatchObject({ path: file, server: name, code: "INPUT_UNRESOLVED" });
      expect(issue?.message).toContain('"api-key"');
      expect(issue?.message).toContain("resolveInput");
      expect(issue?.message).toContain(file);
    }
  });

  it("asks resolveInput once per input for the whole load, with its definition", async () => {
    const { t } = await tree();
    const asked: Array<[string, unknown]> = [];
    const result = await t.load({
      resolveInput: async (id, input) => {
        asked.push([id, input]);
        return "k-42";
      },
    });
    expect(result.errors).toEqual([]);
    expect(result.configs.remote).toEqual({
      type: "http",
      url: "https://api.example/mcp",
      headers: { Authorization: "Bearer k-42" },
    });
    expect(result.configs.local).toEqual({ type: "stdio", command: "srv", env: { KEY: "k-42" } });
    expect(asked).toEqual([
      ["api-key", { type: "promptString", id: "api-key", description: "API key", password: true }],
    ]);
  });

  it("makes the server an error when the input gets no answer", async () => {
    const { t } = await tree();
    const result = await t.load({ resolveInput: async () => undefined });
    expect(issueOf(result, "remote")).toMatchObject({ code: "INPUT_UNRESOLVED" });
    expect(issueOf(result, "remote")?.message).toContain("got no answer");
    expect(result.configs.plain).toEqual({ type: "stdio", command: "srv" });
  });
});
