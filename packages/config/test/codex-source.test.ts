import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createCodexSource } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

describe("Codex source", () => {
  it("maps [mcp_servers.*] tables, seconds to milliseconds, tool lists and HTTP auth", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(
      ".codex/config.toml",
      `model = "o4"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]
cwd = "/srv/docs"
env_vars = ["PATH_EXTRA", "NOT_SET"]
startup_timeout_sec = 20
tool_timeout_sec = 1.5
enabled_tools = ["search", "open"]
disabled_tools = ["delete"]

[mcp_servers.docs.env]
LOG = "debug"

[mcp_servers.figma]
url = "https://mcp.figma.com/mcp"
bearer_token_env_var = "FIGMA_TOKEN"
http_headers = { "X-Client" = "codex" }
env_http_headers = { "X-Region" = "FIGMA_REGION", "X-Unset" = "UNSET_VAR" }

[mcp_servers.off]
command = "off"
enabled = false
`,
    );
    const result = await tree.load({
      env: { PATH_EXTRA: "/opt/bin", FIGMA_TOKEN: "tok", FIGMA_REGION: "eu" },
      sources: [createCodexSource()],
    });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      docs: {
        command: "npx",
        args: ["-y", "docs-mcp"],
        cwd: "/srv/docs",
        env: { PATH_EXTRA: "/opt/bin", LOG: "debug" },
        timeout: 20000,
        toolTimeout: 1500,
        includeTools: ["search", "open"],
        excludeTools: ["delete"],
      },
      figma: {
        type: "http",
        url: "https://mcp.figma.com/mcp",
        headers: { "X-Client": "codex", "X-Region": "eu", Authorization: "Bearer tok" },
      },
    });
    expect(result.disabled).toEqual([
      { name: "off", source: { provider: "codex", providerName: "Codex", path: file, level: "user" } },
    ]);
  });

  it("makes a server whose bearer_token_env_var is unset an error naming the variable and the file", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(
      ".codex/config.toml",
      '[mcp_servers.figma]\nurl = "https://mcp.figma.com/mcp"\nbearer_token_env_var = "FIGMA_TOKEN"\n\n[mcp_servers.ok]\ncommand = "ok"\n',
    );
    const result = await tree.load();
    expect(Object.keys(result.configs)).toEqual(["ok"]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ path: file, server: "figma", code: "VAR_UNSET" });
    expect(result.errors[0]?.message).toContain("FIGMA_TOKEN is not set");
    expect(result.errors[0]?.message).toContain(file);
  });

  it("reads the project's .codex/config.toml above the user's, and $CODEX_HOME", async () => {
    const tree = await fixture();
    const codexHome = join(tree.root, "codex-home");
    await mkdir(codexHome);
    await writeFile(join(codexHome, "config.toml"), '[mcp_servers.a]\ncommand = "from-codex-home"\n');
    await tree.writeHome(".codex/config.toml", '[mcp_servers.a]\ncommand = "from-default-home"\n');
    const projectFile = await tree.writeProject(
      ".codex/config.toml",
      '[mcp_servers.b]\ncommand = "project"\nstartup_timeout_ms = 750\n',
    );
    const result = await tree.load({ env: { CODEX_HOME: codexHome } });
    expect(result.configs).toEqual({
      b: { command: "project", timeout: 750 },
      a: { command: "from-codex-home" },
    });
    expect(result.sources.b?.path).toBe(projectFile);
  });

  it("names Codex's own field when a converted value is invalid", async () => {
    const tree = await fixture();
    await tree.writeHome(
      ".codex/config.toml",
      '[mcp_servers.slow]\ncommand = "x"\nstartup_timeout_sec = "ten"\n',
    );
    const result = await tree.load();
    expect(result.errors[0]?.message).toBe(
      'servers.slow.timeout: must be a positive whole number of milliseconds, got "ten" (written as startup_timeout_sec, in seconds)',
    );
  });
});
