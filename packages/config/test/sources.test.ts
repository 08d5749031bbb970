import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  appConfigDir,
  builtinSources,
  createClaudeCodeSource,
  createClaudeDesktopSource,
  createCodexSource,
  createCursorSource,
  createGeminiSource,
  createNativeSource,
  createVsCodeSource,
  createWindsurfSource,
  loadAllMCPConfigs,
} from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./fixture-tree.js";

const fixture = useFixtureTrees();

describe("builtinSources", () => {
  it("lists the eight providers of §7, highest priority first", () => {
    expect(builtinSources.map((source) => source.id)).toEqual([
      "mcp-rt",
      "claude-code",
      "claude-desktop",
      "codex",
      "gemini",
      "cursor",
      "windsurf",
      "vscode",
    ]);
    const priorities = builtinSources.map((source) => source.priority);
    expect([...priorities].sort((a, b) => b - a)).toEqual(priorities);
    expect(new Set(priorities).size).toBe(priorities.length);
  });
});

describe("appConfigDir", () => {
  const home = "/h";
  it("follows each OS's convention", () => {
    expect(appConfigDir({ homeDir: home, env: {}, platform: "linux" })).toBe(join(home, ".config"));
    expect(appConfigDir({ homeDir: home, env: { XDG_CONFIG_HOME: "/xdg" }, platform: "linux" })).toBe("/xdg");
    expect(appConfigDir({ homeDir: home, env: { XDG_CONFIG_HOME: "relative" }, platform: "linux" })).toBe(
      join(home, ".config"),
    );
    expect(appConfigDir({ homeDir: home, env: {}, platform: "darwin" })).toBe(
      join(home, "Library", "Application Support"),
    );
    expect(
      appConfigDir({ homeDir: home, env: { APPDATA: "C:\\Users\\u\\AppData\\Roaming" }, platform: "win32" }),
    ).toBe("C:\\Users\\u\\AppData\\Roaming");
    expect(appConfigDir({ homeDir: home, env: {}, platform: "win32" })).toBe(
      join(home, "AppData", "Roaming"),
    );
  });
});

describe("native (mcp-rt) source", () => {
  it("reads both files in mcp-rt's own shape, project first, and drops unknown fields", async () => {
    const tree = await fixture();
    const projectFile = await tree.writeProject(".mcp-rt/mcp.json", {
      mcpServers: {
        lint: {
          type: "stdio",
          command: "npx",
          args: ["-y", "lint-mcp"],
          env: { LEVEL: "strict" },
          cwd: "tools",
          timeout: 5000,
          toolTimeout: 60000,
          includeTools: ["lint"],
          excludeTools: ["fix"],
          description: "kept in the file, not in the config",
        },
        shared: { command: "project-wins" },
      },
    });
    const userFile = await tree.writeHome(".mcp-rt/mcp.json", {
      mcpServers: {
        docs: {
          type: "http",
          url: "https://docs.example.com/mcp",
          headers: { "X-Team": "core" },
          auth: { type: "oauth", scope: "read", clientId: "abc", callbackPort: 8123 },
        },
        vault: {
          url: "https://vault.example.com/sse",
          type: "sse",
          auth: { type: "apikey", credentialId: "vault" },
        },
        shared: { command: "user-loses" },
      },
    });
    const result = await tree.load({ sources: [createNativeSource()] });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      lint: {
        type: "stdio",
        command: "npx",
        args: ["-y", "lint-mcp"],
        env: { LEVEL: "strict" },
        cwd: "tools",
        timeout: 5000,
        toolTimeout: 60000,
        includeTools: ["lint"],
        excludeTools: ["fix"],
      },
      shared: { command: "project-wins" },
      docs: {
        type: "http",
        url: "https://docs.example.com/mcp",
        headers: { "X-Team": "core" },
        auth: { type: "oauth", scope: "read", clientId: "abc", callbackPort: 8123 },
      },
      vault: {
        type: "sse",
        url: "https://vault.example.com/sse",
        auth: { type: "apikey", credentialId: "vault" },
      },
    });
    expect(result.sources.lint).toEqual({
      provider: "mcp-rt",
      providerName: "mcp-rt",
      path: projectFile,
      level: "project",
    });
    expect(result.sources.docs).toEqual({
      provider: "mcp-rt",
      providerName: "mcp-rt",
      path: userFile,
      level: "user",
    });
    expect(result.shadowed).toEqual([
      { name: "shared", source: result.sources.docs, by: result.sources.lint },
    ]);
  });

  it("disabledServers turns off a server defined in another client's file", async () => {
    const tree = await fixture();
    await tree.writeHome(".mcp-rt/mcp.json", { disabledServers: ["noisy"] });
    const cursorFile = await tree.writeHome(".cursor/mcp.json", {
      mcpServers: { noisy: { command: "noisy-mcp" }, quiet: { command: "quiet-mcp" } },
    });
    const result = await tree.load();
    expect(Object.keys(result.configs)).toEqual(["quiet"]);
    expect(result.disabled).toEqual([
      {
        name: "noisy",
        source: { provider: "cursor", providerName: "Cursor", path: cursorFile, level: "user" },
      },
    ]);
  });

  it("reports a disabledServers that is not a list of names", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".mcp-rt/mcp.json", {
      mcpServers: { a: { command: "a" } },
      disabledServers: "a",
    });
    const result = await tree.load();
    expect(result.configs).toEqual({ a: { command: "a" } });
    expect(result.errors).toEqual([
      {
        path: file,
        code: "CONFIG_INVALID",
        message: `${file}: "disabledServers" must be an array of server names, got "a"`,
      },
    ]);
  });
});

describe("Claude Code source", () => {
  it("maps type/url/headers/oauth and ranks local scope over .mcp.json over user scope", async () => {
    const tree = await fixture();
    const claudeJson = await tree.writeHome(".claude.json", {
      numStartups: 12,
      mcpServers: {
        shared: { type: "stdio", command: "user-scope" },
        "user-only": { type: "sse", url: "https://sse.example.com/sse", headers: { "X-Key": "k" } },
        "project-and-user": { command: "user-scope" },
      },
      projects: {
        "/some/other/project": { mcpServers: { elsewhere: { command: "not-here" } } },
        [tree.project]: {
          allowedTools: [],
          mcpServers: {
            shared: { type: "stdio", command: "local-scope", args: ["--local"], env: { A: "1" } },
            sentry: {
              type: "http",
              url: "https://mcp.sentry.dev/mcp",
              headers: { Authorization: "Bearer x" },
              oauth: { clientId: "client-1", callbackPort: 8080, scopes: "read write" },
            },
          },
        },
      },
    });
    const mcpJson = await tree.writeProject(".mcp.json", {
      mcpServers: {
        shared: { command: "project-scope" },
        "project-and-user": { command: "project-scope" },
        weather: { type: "streamable-http", url: "https://weather.example.com/mcp" },
      },
    });
    const result = await tree.load({ sources: [createClaudeCodeSource()] });
    expect(result.errors).toEqual([]);
    const local = { provider: "claude-code", providerName: "Claude Code", path: claudeJson, level: "user" };
    const project = { provider: "claude-code", providerName: "Claude Code", path: mcpJson, level: "project" };
    expect(result.configs).toEqual({
      shared: { type: "stdio", command: "local-scope", args: ["--local"], env: { A: "1" } },
      sentry: {
        type: "http",
        url: "https://mcp.sentry.dev/mcp",
        headers: { Authorization: "Bearer x" },
        auth: { type: "oauth", clientId: "client-1", callbackPort: 8080, scope: "read write" },
      },
      "project-and-user": { command: "project-scope" },
      weather: { type: "http", url: "https://weather.example.com/mcp" },
      "user-only": { type: "sse", url: "https://sse.example.com/sse", headers: { "X-Key": "k" } },
    });
    expect(result.sources.shared).toEqual(local);
    expect(result.sources.weather).toEqual(project);
    expect(result.shadowed).toEqual([
      { name: "shared", source: project, by: local },
      { name: "shared", source: local, by: local },
      { name: "project-and-user", source: local, by: project },
    ]);
    expect(result.configs.elsewhere).toBeUndefined();
  });

  it("finds projects[<cwd>] through a trailing slash and through a symlinked cwd", async () => {
    const tree = await fixture();
    await tree.writeHome(".claude.json", {
      projects: { [`${tree.project}/`]: { mcpServers: { local: { command: "local-mcp" } } } },
    });
    expect(Object.keys((await tree.load()).configs)).toEqual(["local"]);

    const link = join(tree.root, "link");
    await symlink(tree.project, link);
    const fromLink = await loadAllMCPConfigs(link, {
      homeDir: tree.home,
      env: {},
      sources: [createClaudeCodeSource()],
    });
    expect(fromLink.configs).toEqual({ local: { command: "local-mcp" } });
  });

  it("finds projects[<key>] when the key is a symlink to the cwd, or spelled with . or ..", async () => {
    const tree = await fixture();
    const link = join(tree.root, "link-to-project");
    await symlink(tree.project, link);
    await tree.writeHome(".claude.json", {
      projects: {
        "/elsewhere/unrelated": { mcpServers: { other: { command: "no" } } },
        [link]: { mcpServers: { viaLink: { command: "linked-mcp" } } },
      },
    });
    expect((await tree.load()).configs).toEqual({ viaLink: { command: "linked-mcp" } });

    await tree.writeHome(".claude.json", {
      projects: { [`${tree.project}/./sub/..`]: { mcpServers: { dotted: { command: "d" } } } },
    });
    expect((await tree.load()).configs).toEqual({ dotted: { command: "d" } });
  });

  it("turns .mcp.json servers the user declined in Claude (disabledMcpjsonServers) into disabled", async () => {
    const tree = await fixture();
    await tree.writeHome(".claude.json", {
      projects: { [tree.project]: { disabledMcpjsonServers: ["risky"] } },
    });
    await tree.writeProject(".mcp.json", {
      mcpServers: { risky: { command: "rm" }, fine: { command: "ok" } },
    });
    const result = await tree.load();
    expect(Object.keys(result.configs)).toEqual(["fine"]);
    expect(result.disabled.map((entry) => entry.name)).toEqual(["risky"]);
  });

  it("reads .claude.json from $CLAUDE_CONFIG_DIR when set", async () => {
    const tree = await fixture();
    const dir = join(tree.root, "claude-config");
    await mkdir(dir);
    await tree.writeHome(".claude.json", { mcpServers: { home: { command: "home" } } });
    await writeFile(
      join(dir, ".claude.json"),
      JSON.stringify({ mcpServers: { moved: { command: "moved" } } }),
    );
    const result = await tree.load({ env: { CLAUDE_CONFIG_DIR: dir } });
    expect(result.configs).toEqual({ moved: { command: "moved" } });
  });
});

describe("Claude Desktop source", () => {
  const entry = {
    mcpServers: { files: { command: "npx", args: ["-y", "@mcp/fs", "/docs"], env: { DEBUG: "1" } } },
  };
  const expected = { files: { command: "npx", args: ["-y", "@mcp/fs", "/docs"], env: { DEBUG: "1" } } };

  it.each([
    ["linux", {}, ".config/Claude/claude_desktop_config.json"],
    ["darwin", {}, "Library/Application Support/Claude/claude_desktop_config.json"],
    ["win32", {}, "AppData/Roaming/Claude/claude_desktop_config.json"],
  ] as const)("reads the app-config folder on %s", async (platform, env, relative) => {
    const tree = await fixture();
    const file = await tree.writeHome(relative, entry);
    const result = await tree.load({ platform, env, sources: [createClaudeDesktopSource()] });
    expect(result.configs).toEqual(expected);
    expect(result.sources.files).toEqual({
      provider: "claude-desktop",
      providerName: "Claude Desktop",
      path: file,
      level: "user",
    });
  });

  it("follows $APPDATA on Windows and $XDG_CONFIG_HOME on Linux", async () => {
    const tree = await fixture();
    const appData = join(tree.root, "roaming");
    const xdg = join(tree.root, "xdg");
    for (const dir of [appData, xdg]) {
      await mkdir(join(dir, "Claude"), { recursive: true });
      await writeFile(join(dir, "Claude", "claude_desktop_config.json"), JSON.stringify(entry));
    }
    const sources = [createClaudeDesktopSource()];
    expect((await tree.load({ platform: "win32", env: { APPDATA: appData }, sources })).configs).toEqual(
      expected,
    );
    expect((await tree.load({ platform: "linux", env: { XDG_CONFIG_HOME: xdg }, sources })).configs).toEqual(
      expected,
    );
  });
});

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

describe("Gemini CLI source", () => {
  it("maps httpUrl, url, timeout, tool lists and oauth; comments are allowed", async () => {
    const tree = await fixture();
    await tree.writeHome(
      ".gemini/settings.json",
      `{
  // Gemini settings allow comments
  "theme": "Dracula",
  "mcpServers": {
    "stream": { "httpUrl": "https://api.example.com/mcp", "headers": { "Authorization": "Bearer t" }, "timeout": 5000 },
    "events": { "url": "https://api.example.com/sse", "trust": true },
    "both": { "httpUrl": "https://a.example.com/mcp", "url": "https://b.example.com/sse" },
    "typed": { "url": "https://c.example.com/mcp", "type": "http" },
    "py": {
      "command": "python", "args": ["-m", "srv"], "cwd": "./srv", "env": { "K": "v" },
      "includeTools": ["safe"], "excludeTools": ["rm"], "description": "ignored"
    },
    "gcp": { "httpUrl": "https://gcp.example.com/mcp", "oauth": { "enabled": true, "clientId": "cid", "scopes": ["a", "b"] } }
  }
}`,
    );
    const result = await tree.load({ sources: [createGeminiSource()] });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      stream: {
        type: "http",
        url: "https://api.example.com/mcp",
        headers: { Authorization: "Bearer t" },
        timeout: 5000,
        toolTimeout: 5000,
      },
      events: { type: "sse", url: "https://api.example.com/sse" },
      both: { type: "http", url: "https://a.example.com/mcp" },
      typed: { type: "http", url: "https://c.example.com/mcp" },
      py: {
        command: "python",
        args: ["-m", "srv"],
        cwd: "./srv",
        env: { K: "v" },
        includeTools: ["safe"],
        excludeTools: ["rm"],
      },
      gcp: {
        type: "http",
        url: "https://gcp.example.com/mcp",
        auth: { type: "oauth", clientId: "cid", scope: "a b" },
      },
    });
  });

  it("ranks .gemini/settings.json above the user's and applies mcp.excluded / mcp.allowed", async () => {
    const tree = await fixture();
    await tree.writeHome(".gemini/settings.json", {
      mcp: { excluded: ["old"] },
      mcpServers: { a: { command: "user-a" }, old: { command: "old" }, b: { command: "b" } },
    });
    const projectFile = await tree.writeProject(".gemini/settings.json", {
      mcpServers: { a: { command: "project-a" } },
    });
    const result = await tree.load();
    expect(result.configs).toEqual({ a: { command: "project-a" }, b: { command: "b" } });
    expect(result.sources.a?.path).toBe(projectFile);
    expect(result.disabled.map((entry) => entry.name)).toEqual(["old"]);

    await tree.writeProject(".gemini/settings.json", { mcp: { allowed: ["b"] }, mcpServers: {} });
    const allowed = await tree.load();
    expect(Object.keys(allowed.configs)).toEqual(["b"]);
    expect(allowed.disabled.map((entry) => entry.name).sort()).toEqual(["a", "old"]);
  });

  it("points a bad httpUrl message at the field Gemini users write", async () => {
    const tree = await fixture();
    await tree.writeHome(".gemini/settings.json", { mcpServers: { s: { httpUrl: "ftp://x" } } });
    expect((await tree.load()).errors[0]?.message).toBe(
      'servers.s.url: must be an http:// or https:// URL, e.g. "https://example.com/mcp", got "ftp://x" (written as httpUrl)',
    );
  });
});

describe("Cursor source", () => {
  it("maps type/url/headers/envFile/auth and ranks .cursor/mcp.json above ~/.cursor/mcp.json", async () => {
    const tree = await fixture();
    await tree.writeProject(".env.mcp", "TOKEN=from-file\nLEVEL=file\n");
    const projectFile = await tree.writeProject(".cursor/mcp.json", {
      mcpServers: {
        local: {
          type: "stdio",
          command: "node",
          args: ["srv.js"],
          env: { LEVEL: "explicit" },
          envFile: ".env.mcp",
        },
        shared: { url: "https://project.example.com/mcp" },
      },
    });
    await tree.writeHome(".cursor/mcp.json", {
      mcpServers: {
        shared: { url: "https://user.example.com/mcp" },
        remote: {
          url: "https://remote.example.com/mcp",
          headers: { Authorization: "Bearer abc" },
          auth: { CLIENT_ID: "cid", CLIENT_SECRET: "secret", scopes: ["read"] },
        },
        streamed: { type: "streamable-http", url: "https://s.example.com/mcp" },
        events: { type: "sse", url: "https://e.example.com/sse" },
      },
    });
    const result = await tree.load({ sources: [createCursorSource()] });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      local: {
        type: "stdio",
        command: "node",
        args: ["srv.js"],
        env: { TOKEN: "from-file", LEVEL: "explicit" },
      },
      shared: { url: "https://project.example.com/mcp" },
      remote: {
        url: "https://remote.example.com/mcp",
        headers: { Authorization: "Bearer abc" },
        auth: { type: "oauth", clientId: "cid", clientSecret: "secret", scope: "read" },
      },
      streamed: { type: "http", url: "https://s.example.com/mcp" },
      events: { type: "sse", url: "https://e.example.com/sse" },
    });
    expect(result.sources.shared?.path).toBe(projectFile);
    expect(result.shadowed.map((entry) => entry.name)).toEqual(["shared"]);
  });

  it("makes a server whose envFile is missing an error, and loads the others", async () => {
    const tree = await fixture();
    const file = await tree.writeHome(".cursor/mcp.json", {
      mcpServers: { a: { command: "a", envFile: "/nonexistent/.env" }, b: { command: "b" } },
    });
    const result = await tree.load();
    expect(Object.keys(result.configs)).toEqual(["b"]);
    expect(result.errors).toEqual([
      expect.objectContaining({ path: file, server: "a", code: "CONFIG_UNREADABLE" }),
    ]);
    expect(result.errors[0]?.message).toMatch(
      /^servers\.a\.envFile: cannot read \/nonexistent\/\.env \(it does not exist\); create it or fix the path in /,
    );
  });
});

describe("Windsurf source", () => {
  it("maps serverUrl, disabled and disabledTools; reads .windsurf/mcp_config.json above the user's file", async () => {
    const tree = await fixture();
    const userFile = await tree.writeHome(".codeium/windsurf/mcp_config.json", {
      mcpServers: {
        remote: { serverUrl: "https://r.example.com/mcp", headers: { "X-Key": "k" } },
        legacy: { url: "https://l.example.com/sse" },
        git: {
          command: "uvx",
          args: ["mcp-server-git"],
          env: {},
          disabled: false,
          disabledTools: ["git_reset"],
        },
        off: { command: "off", disabled: true },
      },
    });
    await tree.writeProject(".windsurf/mcp_config.json", { mcpServers: { git: { command: "project-git" } } });
    const result = await tree.load({ sources: [createWindsurfSource()] });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      git: { command: "project-git" },
      remote: { url: "https://r.example.com/mcp", headers: { "X-Key": "k" } },
      legacy: { url: "https://l.example.com/sse" },
    });
    expect(result.disabled).toEqual([
      {
        name: "off",
        source: { provider: "windsurf", providerName: "Windsurf", path: userFile, level: "user" },
      },
    ]);
    expect(result.shadowed).toHaveLength(1);

    await tree.writeProject(".windsurf/mcp_config.json", {});
    const unshadowed = await tree.load({ sources: [createWindsurfSource()] });
    expect(unshadowed.configs.git).toEqual({
      command: "uvx",
      args: ["mcp-server-git"],
      env: {},
      enabled: true,
      excludeTools: ["git_reset"],
    });
  });
});

describe("VS Code source", () => {
  it("reads JSONC `servers` with comments and trailing commas, types, envFile and cwd", async () => {
    const tree = await fixture();
    await tree.writeProject(".env", "API_KEY=from-env-file\n");
    const file = await tree.writeProject(
      ".vscode/mcp.json",
      `{
  // Secrets are prompted for
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "API key", "password": true },
  ],
  "servers": {
    /* a local server */
    "memory": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-memory"],
      "envFile": ".env",
      "cwd": "/srv",
    },
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp", "headers": { "X-Id": "1" } },
    "legacy": { "type": "sse", "url": "https://legacy.example.com/sse" },
  },
  // VS Code does not read this key
  "mcpServers": { "ignored": { "command": "nope" } },
}`,
    );
    const result = await tree.load({ sources: [createVsCodeSource()] });
    expect(result.errors).toEqual([]);
    expect(result.configs).toEqual({
      memory: {
        type: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-memory"],
        env: { API_KEY: "from-env-file" },
        cwd: "/srv",
      },
      github: { type: "http", url: "https://api.githubcopilot.com/mcp", headers: { "X-Id": "1" } },
      legacy: { type: "sse", url: "https://legacy.example.com/sse" },
    });
    expect(result.sources.memory).toEqual({
      provider: "vscode",
      providerName: "VS Code",
      path: file,
      level: "project",
    });
  });

  it.each([
    ["linux", ".config/Code/User/mcp.json"],
    ["darwin", "Library/Application Support/Code/User/mcp.json"],
    ["win32", "AppData/Roaming/Code/User/mcp.json"],
  ] as const)(
    "reads the user profile's mcp.json on %s, below the workspace file",
    async (platform, relative) => {
      const tree = await fixture();
      const userFile = await tree.writeHome(relative, {
        servers: { shared: { type: "stdio", command: "user" }, mine: { type: "stdio", command: "mine" } },
      });
      await tree.writeProject(".vscode/mcp.json", {
        servers: { shared: { type: "stdio", command: "workspace" } },
      });
      const result = await tree.load({ platform, sources: [createVsCodeSource()] });
      expect(result.configs).toEqual({
        shared: { type: "stdio", command: "workspace" },
        mine: { type: "stdio", command: "mine" },
      });
      expect(result.sources.mine?.path).toBe(userFile);
    },
  );
});
