// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are what these tests are about
import { describe, expect, it } from "vitest";
import { loadAsDocumented, useFixtureTrees } from "./helpers.js";

// Each file is written the way that client's own MCP documentation shows it
// (field names, placeholder forms, comments), and the loaded config is
// compared with what the documentation says the entry means.

const fixture = useFixtureTrees();

describe("files written as each client's documentation shows them", () => {
  it("Codex: [mcp_servers] tables with env_vars, timeouts in seconds, tool lists, bearer and env headers", async () => {
    const tree = await fixture();
    await tree.writeHome(
      ".codex/config.toml",
      `model = "gpt-5.1"

[mcp_servers.server_name]
command = "npx"
args = ["-y", "mcp-server"]
env = { "API_KEY" = "value" }
env_vars = ["API_KEY2", "NOT_SET_HERE"]
cwd = "/Users/me/code/my-server"
startup_timeout_sec = 20
tool_timeout_sec = 30
enabled_tools = ["search", "summarize"]
disabled_tools = ["search"]

[mcp_servers.figma]
url = "https://mcp.figma.com/mcp"
bearer_token_env_var = "FIGMA_OAUTH_TOKEN"
http_headers = { "HEADER_NAME" = "HEADER_VALUE" }
env_http_headers = { "X-Extra" = "FIGMA_EXTRA", "X-Unset" = "NOT_SET_HERE" }

[mcp_servers.off]
command = "x"
enabled = false
`,
    );
    await tree.writeProject(
      ".codex/config.toml",
      '[mcp_servers.fast]\ncommand = "srv"\nstartup_timeout_sec = 0.5\n',
    );
    const result = await loadAsDocumented(tree);
    expect(result.errors).toEqual([]);
    expect(result.configs.server_name).toEqual({
      command: "npx",
      args: ["-y", "mcp-server"],
      env: { API_KEY2: "k-2", API_KEY: "value" },
      cwd: "/Users/me/code/my-server",
      timeout: 20_000,
      toolTimeout: 30_000,
      includeTools: ["search", "summarize"],
      excludeTools: ["search"],
    });
    expect(result.configs.figma).toEqual({
      type: "http",
      url: "https://mcp.figma.com/mcp",
      headers: { HEADER_NAME: "HEADER_VALUE", "X-Extra": "extra", Authorization: "Bearer k-figma" },
    });
    expect(result.configs.fast).toEqual({ command: "srv", timeout: 500 });
    expect(result.disabled.map((entry) => entry.name)).toEqual(["off"]);
  });

  it("Gemini CLI: settings.json with comments, httpUrl / url, timeout, tool lists, and both $VAR and ${VAR}", async () => {
    const tree = await fixture();
    await tree.writeHome(
      ".gemini/settings.json",
      `{
        // ...file contains other config objects
        "theme": "Dracula",
        "mcpServers": {
          "pythonTools": {
            "command": "python",
            "args": ["-m", "my_mcp_server", "--port", "8080"],
            "cwd": "./mcp-servers/python",
            "env": { "DATABASE_URL": "$DB_CONNECTION_STRING", "API_KEY": "\${EXTERNAL_API_KEY}" },
            "timeout": 15000
          },
          "dockerizedServer": {
            "command": "docker",
            "args": ["run", "-i", "--rm", "-e", "API_KEY", "-v", "\${PWD}:/workspace", "my-mcp-server:latest"],
            "env": { "API_KEY": "$EXTERNAL_SERVICE_TOKEN" }
          },
          "httpServerWithAuth": {
            "httpUrl": "http://localhost:3000/mcp",
            "headers": { "Authorization": "Bearer your-api-token" },
            "timeout": 5000,
            "trust": true
          },
          "sseServer": { "url": "http://localhost:8080/sse" },
          "filteredServer": {
            "command": "python",
            "args": ["-m", "my_mcp_server"],
            "includeTools": ["safe_tool", "file_reader"],
            "excludeTools": ["dangerous_tool"]
          }
        }
      }`,
    );
    const result = await loadAsDocumented(tree);
    expect(result.errors).toEqual([]);
    expect(result.configs.pythonTools).toEqual({
      command: "python",
      args: ["-m", "my_mcp_server", "--port", "8080"],
      cwd: "./mcp-servers/python",
      env: { DATABASE_URL: "postgres://db", API_KEY: "k-ext" },
      timeout: 15_000,
      toolTimeout: 15_000,
    });
    expect(result.configs.dockerizedServer).toEqual({
      command: "docker",
      args: ["run", "-i", "--rm", "-e", "API_KEY", "-v", "/somewhere:/workspace", "my-mcp-server:latest"],
      env: { API_KEY: "k-svc" },
    });
    expect(result.configs.httpServerWithAuth).toEqual({
      type: "http",
      url: "http://localhost:3000/mcp",
      headers: { Authorization: "Bearer your-api-token" },
      timeout: 5000,
      toolTimeout: 5000,
    });
    expect(result.configs.sseServer).toEqual({ type: "sse", url: "http://localhost:8080/sse" });
    expect(result.configs.filteredServer).toEqual({
      command: "python",
      args: ["-m", "my_mcp_server"],
      includeTools: ["safe_tool", "file_reader"],
      excludeTools: ["dangerous_tool"],
    });
  });

  it("Gemini CLI: an unset $VAR stays as written, as Gemini leaves it", async () => {
    const tree = await fixture();
    await tree.writeProject(".gemini/settings.json", {
      mcpServers: { s: { command: "srv", env: { PASSWORD: "pa$word", KEY: "$NOT_SET_HERE" } } },
    });
    const result = await loadAsDocumented(tree);
    expect(result.errors).toEqual([]);
    expect(result.configs.s).toEqual({ command: "srv", env: { PASSWORD: "pa$word", KEY: "$NOT_SET_HERE" } });
  });
});
