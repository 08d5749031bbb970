// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are what these tests are about
import { describe, expect, it } from "vitest";
import { loadAsDocumented, useFixtureTrees } from "./helpers.js";

// Each file is written the way that client's own MCP documentation shows it
// (field names, placeholder forms, comments), and the loaded config is
// compared with what the documentation says the entry means.

const fixture = useFixtureTrees();

describe("files written as each client's documentation shows them", () => {
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
    const result = await loadAsDocumented(tree);
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
    const result = await loadAsDocumented(tree);
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

  it("Antigravity: the CLI's ~/.gemini/config/mcp_config.json (serverUrl, headers, disabled), then the IDE's", async () => {
    const tree = await fixture();
    await tree.writeHome(".gemini/config/mcp_config.json", {
      mcpServers: {
        "github-mcp-server": {
          command: "docker",
          args: [
            "run",
            "-i",
            "--rm",
            "-e",
            "GITHUB_PERSONAL_ACCESS_TOKEN",
            "ghcr.io/github/github-mcp-server",
          ],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: "<YOUR_TOKEN>" },
        },
        context7: {
          serverUrl: "https://mcp.context7.com/mcp",
          headers: { CONTEXT7_API_KEY: "${API_KEY2}" },
        },
        sleeping: { command: "npx", args: ["-y", "some-mcp"], disabled: true },
      },
    });
    await tree.writeHome(".gemini/antigravity/mcp_config.json", {
      mcpServers: { "from-ide": { serverUrl: "https://ide.example/mcp" } },
    });
    const result = await loadAsDocumented(tree);
    expect(result.errors).toEqual([]);
    expect(result.configs["github-mcp-server"]).toEqual({
      command: "docker",
      args: ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: "<YOUR_TOKEN>" },
    });
    expect(result.configs.context7).toEqual({
      url: "https://mcp.context7.com/mcp",
      headers: { CONTEXT7_API_KEY: "k-2" },
    });
    expect(result.configs["from-ide"]).toEqual({ url: "https://ide.example/mcp" });
    expect(result.sources.context7).toMatchObject({ provider: "antigravity", providerName: "Antigravity" });
    expect(result.disabled.map((entry) => entry.name)).toEqual(["sleeping"]);
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
    const result = await loadAsDocumented(tree);
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
