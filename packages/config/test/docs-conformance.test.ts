// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are what these tests are about
import { describe, expect, it } from "vitest";
import { type FixtureTree, useFixtureTrees } from "./fixture-tree.js";

// Each file below is written the way that client's own MCP documentation
// shows it (field names, placeholder forms, comments), and the loaded config
// is compared with what the documentation says the entry means.

const fixture = useFixtureTrees();

const ENV = {
  API_KEY: "k-api",
  DB_CONNECTION_STRING: "postgres://db",
  EXTERNAL_API_KEY: "k-ext",
  EXTERNAL_SERVICE_TOKEN: "k-svc",
  PWD: "/somewhere",
  AUTH_TOKEN: "k-auth",
  MY_SERVICE_TOKEN: "k-cursor",
  MCP_CLIENT_ID: "client-123",
  MCP_CLIENT_SECRET: "secret-456",
  FIGMA_OAUTH_TOKEN: "k-figma",
  FIGMA_EXTRA: "extra",
  API_KEY2: "k-2",
};

async function load(tree: FixtureTree) {
  return tree.load({ env: ENV, filterExa: false, resolveInput: async (id) => `answer:${id}` });
}

describe("files written as each client's documentation shows them", () => {
  it("Claude Code: ~/.claude.json user and local scope, .mcp.json with ${VAR} and ${VAR:-default}", async () => {
    const tree = await fixture();
    await tree.writeHome(".claude.json", {
      numStartups: 4,
      mcpServers: {
        airtable: { type: "stdio", command: "npx", args: ["-y", "airtable-mcp-server"], env: {} },
      },
      projects: {
        [tree.project]: {
          mcpServers: { stripe: { type: "http", url: "https://mcp.stripe.com" } },
          disabledMcpjsonServers: ["declined"],
        },
      },
    });
    await tree.writeProject(".mcp.json", {
      mcpServers: {
        "api-server": {
          type: "http",
          url: "${API_BASE_URL:-https://api.example.com}/mcp",
          headers: { Authorization: "Bearer ${API_KEY}" },
        },
        declined: { command: "npx", args: ["x"] },
        local: { command: "node", args: ["${CLAUDE_PROJECT_DIR}/tools/mcp.js"] },
      },
    });
    const result = await load(tree);
    expect(result.errors).toEqual([]);
    expect(result.configs.airtable).toEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", "airtable-mcp-server"],
      env: {},
    });
    expect(result.configs.stripe).toEqual({ type: "http", url: "https://mcp.stripe.com" });
    expect(result.configs["api-server"]).toEqual({
      type: "http",
      url: "https://api.example.com/mcp",
      headers: { Authorization: "Bearer k-api" },
    });
    expect(result.configs.local).toEqual({ command: "node", args: [`${tree.project}/tools/mcp.js`] });
    expect(result.disabled.map((entry) => entry.name)).toEqual(["declined"]);
  });

  it("Claude Desktop: claude_desktop_config.json in ~/.config/Claude on Linux", async () => {
    const tree = await fixture();
    await tree.writeHome(".config/Claude/claude_desktop_config.json", {
      mcpServers: {
        filesystem: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop"],
        },
      },
    });
    const result = await load(tree);
    expect(result.configs.filesystem).toEqual({
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop"],
    });
    expect(result.sources.filesystem).toMatchObject({ provider: "claude-desktop", level: "user" });
  });

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
    const result = await load(tree);
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
    const result = await load(tree);
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
    const result = await load(tree);
    expect(result.errors).toEqual([]);
    expect(result.configs.s).toEqual({ command: "srv", env: { PASSWORD: "pa$word", KEY: "$NOT_SET_HERE" } });
  });

  it("Cursor: ${env:NAME}, ${workspaceFolder}, ${userHome}, ${pathSeparator} and ${/}, envFile, and auth with ${env:…}", async () => {
    const tree = await fixture();
    await tree.writeHome(".cursor/mcp.json", {
      mcpServers: {
        "remote-server": {
          url: "https://api.example.com/mcp",
          headers: { Authorization: "Bearer ${env:MY_SERVICE_TOKEN}" },
        },
        "oauth-server": {
          url: "https://api.example.com/mcp",
          auth: {
            CLIENT_ID: "${env:MCP_CLIENT_ID}",
            CLIENT_SECRET: "${env:MCP_CLIENT_SECRET}",
            scopes: ["read", "write"],
          },
        },
      },
    });
    await tree.writeProject(".cursor/mcp.json", {
      mcpServers: {
        "local-server": {
          type: "stdio",
          command: "npx",
          args: ["-y", "mcp-server", "${workspaceFolder}${pathSeparator}data", "${userHome}${/}cache"],
          env: { API_KEY: "${env:API_KEY}" },
          envFile: ".env",
        },
      },
    });
    await tree.writeProject(".env", "FROM_FILE=1\nAPI_KEY=from-file\n");
    const result = await load(tree);
    expect(result.errors).toEqual([]);
    expect(result.configs["remote-server"]).toEqual({
      url: "https://api.example.com/mcp",
      headers: { Authorization: "Bearer k-cursor" },
    });
    expect(result.configs["oauth-server"]).toEqual({
      url: "https://api.example.com/mcp",
      auth: { type: "oauth", clientId: "client-123", clientSecret: "secret-456", scope: "read write" },
    });
    expect(result.configs["local-server"]).toEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", "mcp-server", `${tree.project}/data`, `${tree.home}/cache`],
      env: { FROM_FILE: "1", API_KEY: "k-api" },
    });
  });

  it("Windsurf: serverUrl, ${env:VAR} in headers, disabled, disabledTools; and the project's .windsurf file", async () => {
    const tree = await fixture();
    await tree.writeHome(".codeium/windsurf/mcp_config.json", {
      mcpServers: {
        github: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-github"],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: "<YOUR_PERSONAL_ACCESS_TOKEN>" },
        },
        figma: { serverUrl: "https://figma.example/mcp", headers: { API_KEY: "Bearer ${env:AUTH_TOKEN}" } },
        quiet: { command: "srv", disabled: true },
        trimmed: { command: "srv", disabledTools: ["delete"] },
      },
    });
    await tree.writeProject(".windsurf/mcp_config.json", {
      mcpServers: { team: { serverUrl: "https://team.example/mcp" } },
    });
    const result = await load(tree);
    expect(result.errors).toEqual([]);
    expect(result.configs.github).toEqual({
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-github"],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: "<YOUR_PERSONAL_ACCESS_TOKEN>" },
    });
    expect(result.configs.figma).toEqual({
      url: "https://figma.example/mcp",
      headers: { API_KEY: "Bearer k-auth" },
    });
    expect(result.configs.trimmed).toEqual({ command: "srv", excludeTools: ["delete"] });
    expect(result.configs.team).toEqual({ url: "https://team.example/mcp" });
    expect(result.sources.team).toMatchObject({ provider: "windsurf", level: "project" });
    expect(result.disabled.map((entry) => entry.name)).toEqual(["quiet"]);
  });

  it("VS Code: user and workspace mcp.json with comments, trailing commas, inputs, envFile and type", async () => {
    const tree = await fixture();
    await tree.writeHome(
      ".config/Code/User/mcp.json",
      `{
        // user profile
        "servers": { "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" } },
      }`,
    );
    await tree.writeProject(
      ".vscode/mcp.json",
      `{
        // Inputs are prompted on first server start, then stored securely by VS Code.
        "inputs": [
          { "type": "promptString", "id": "perplexity-key", "description": "Perplexity API Key", "password": true }
        ],
        "servers": {
          "Perplexity": {
            "type": "stdio",
            "command": "npx",
            "args": ["-y", "server-perplexity-ask"],
            "env": { "PERPLEXITY_API_KEY": "\${input:perplexity-key}" },
            "envFile": "\${workspaceFolder}/.env"
          },
          "remote": { "type": "sse", "url": "http://localhost:3000/sse", "headers": { "X-Key": "\${env:API_KEY}" } },
        }
      }`,
    );
    await tree.writeProject(".env", "FROM_FILE=1\n");
    const result = await load(tree);
    expect(result.errors).toEqual([]);
    expect(result.configs.github).toEqual({ type: "http", url: "https://api.githubcopilot.com/mcp/" });
    expect(result.configs.Perplexity).toEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", "server-perplexity-ask"],
      env: { FROM_FILE: "1", PERPLEXITY_API_KEY: "answer:perplexity-key" },
    });
    expect(result.configs.remote).toEqual({
      type: "sse",
      url: "http://localhost:3000/sse",
      headers: { "X-Key": "k-api" },
    });
  });

  it("names an unset editor placeholder as it was written, without offering a form the editor lacks", async () => {
    const tree = await fixture();
    const file = await tree.writeProject(".vscode/mcp.json", {
      servers: { remote: { type: "http", url: "https://h/mcp", headers: { "X-Token": "${env:VSC_TOKEN}" } } },
    });
    const result = await tree.load();
    const issue = result.errors.find((entry) => entry.server === "remote");
    expect(issue).toMatchObject({ path: file, code: "VAR_UNSET" });
    expect(issue?.message).toContain("${env:VSC_TOKEN} in headers.X-Token");
    expect(issue?.message).not.toContain(":-default");
    expect(issue?.message).toContain("set it");
  });
});
