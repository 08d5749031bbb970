// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are what these tests are about
import { interpolateServerConfig, interpolateString } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

describe("interpolateString", () => {
  const env = { SET: "value", EMPTY: "", NESTED: "${SET}" };

  it.each([
    ["a set variable", "a-${SET}-b", "a-value-b", []],
    ["a default for an unset variable", "${UNSET:-fallback}", "fallback", []],
    ["a default for an empty variable", "${EMPTY:-fallback}", "fallback", []],
    ["an empty default", "x${UNSET:-}y", "xy", []],
    ["a set variable over its default", "${SET:-fallback}", "value", []],
    ["a set but empty variable without default", "[${EMPTY}]", "[]", []],
    ["an unset variable, left as written", "Bearer ${TOKEN}", "Bearer ${TOKEN}", ["TOKEN"]],
    ["each missing variable once", "${A}${B}${A}", "${A}${B}${A}", ["A", "B"]],
    ["a value that itself looks like a placeholder, not expanded again", "${NESTED}", "${SET}", []],
    ["text without placeholders", "$HOME and ${not a var}", "$HOME and ${not a var}", []],
  ])("expands %s", async (_label, template, value, missing) => {
    const result = await interpolateString(template, { env });
    expect(result.value).toBe(value);
    expect(result.missing).toEqual(missing);
    expect(Object.keys(result.written ?? {})).toEqual(missing);
  });
});

describe("interpolateServerConfig", () => {
  it("expands command, args, env, url, headers and cwd, and leaves other fields and shapes alone", async () => {
    const env = { BIN: "node", DIR: "/srv", TOKEN: "t", HOST: "example.com" };
    const { config, missing } = await interpolateServerConfig(
      {
        command: "${BIN}",
        args: ["${DIR}/server.js", 3, "--x=${UNSET:-1}"],
        env: { PATH_DIR: "${DIR}", PORT: 80 },
        cwd: "${DIR}",
        url: "https://${HOST}/mcp",
        headers: { Authorization: "Bearer ${TOKEN}" },
        includeTools: ["${BIN}"],
      },
      { env },
    );
    expect(missing).toEqual([]);
    expect(config).toEqual({
      command: "node",
      args: ["/srv/server.js", 3, "--x=1"],
      env: { PATH_DIR: "/srv", PORT: 80 },
      cwd: "/srv",
      url: "https://example.com/mcp",
      headers: { Authorization: "Bearer t" },
      includeTools: ["${BIN}"],
    });
  });

  it("names every missing variable with the field that uses it", async () => {
    const { missing } = await interpolateServerConfig(
      { command: "${A}", args: ["${B}"], env: { "MY KEY": "${C}" }, headers: { X: "${A}" } },
      { env: {} },
    );
    expect(missing).toEqual([
      { variable: "A", field: "command", placeholder: "${A}" },
      { variable: "B", field: "args[0]", placeholder: "${B}" },
      { variable: "C", field: 'env["MY KEY"]', placeholder: "${C}" },
      { variable: "A", field: "headers.X", placeholder: "${A}" },
    ]);
  });

  it("does not change its input", async () => {
    const input = { command: "${A}", env: { B: "${A}" } };
    await interpolateServerConfig(input, { env: { A: "x" } });
    expect(input).toEqual({ command: "${A}", env: { B: "${A}" } });
  });
});

describe("expansion in loadAllMCPConfigs", () => {
  it("uses set values and defaults, and turns a server with an unset variable into an error naming it and the file", async () => {
    const tree = await fixture();
    const file = await tree.writeProject(".mcp.json", {
      mcpServers: {
        github: {
          type: "http",
          url: "${GH_URL:-https://api.githubcopilot.com/mcp}",
          headers: { Authorization: "Bearer ${GITHUB_TOKEN}" },
        },
        db: { command: "${PG_BIN}", args: ["--db", "${PG_DB:-main}"], env: { PGPASSWORD: "${PG_PASS}" } },
        broken: { command: "x", args: ["${MISSING_ONE}"], env: { K: "${MISSING_TWO}" } },
      },
    });
    const result = await tree.load({
      env: { GITHUB_TOKEN: "ghp_1", PG_BIN: "/usr/bin/pg-mcp", PG_PASS: "" },
    });
    expect(result.configs).toEqual({
      github: {
        type: "http",
        url: "https://api.githubcopilot.com/mcp",
        headers: { Authorization: "Bearer ghp_1" },
      },
      db: { command: "/usr/bin/pg-mcp", args: ["--db", "main"], env: { PGPASSWORD: "" } },
    });
    expect(result.errors).toEqual([
      {
        path: file,
        server: "broken",
        code: "VAR_UNSET",
        message:
          `servers.broken: environment variables MISSING_ONE, MISSING_TWO are not set ` +
          `(\${MISSING_ONE} in args[0], \${MISSING_TWO} in env.K, in ${file}); ` +
          "set them, or write ${MISSING_ONE:-default} to fall back to a default",
      },
    ]);
  });

  it("expands before validating, so a url built from variables is checked as it will be used", async () => {
    const tree = await fixture();
    await tree.writeHome(".cursor/mcp.json", { mcpServers: { a: { url: "${BASE}/mcp" } } });
    expect((await tree.load({ env: { BASE: "https://a.dev" } })).configs).toEqual({
      a: { url: "https://a.dev/mcp" },
    });
    expect((await tree.load({ env: { BASE: "a.dev" } })).errors[0]?.message).toContain('got "a.dev/mcp"');
  });

  it("expands envFile paths and does not expand the file's values", async () => {
    const tree = await fixture();
    await tree.writeProject("secrets/.env", "RAW=${NOT_EXPANDED}\n");
    await tree.writeProject(".vscode/mcp.json", {
      servers: { s: { type: "stdio", command: "x", envFile: "${SECRETS:-secrets}/.env" } },
    });
    expect((await tree.load()).configs).toEqual({
      s: { type: "stdio", command: "x", env: { RAW: "${NOT_EXPANDED}" } },
    });
  });

  it("reads the environment from options.env, not from process.env", async () => {
    const tree = await fixture();
    await tree.writeHome(".mcp-rt/mcp.json", { mcpServers: { a: { command: "${ONLY_IN_OPTIONS}" } } });
    expect(process.env.ONLY_IN_OPTIONS).toBeUndefined();
    expect((await tree.load({ env: { ONLY_IN_OPTIONS: "bin" } })).configs).toEqual({ a: { command: "bin" } });
  });
});
