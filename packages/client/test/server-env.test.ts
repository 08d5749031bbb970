import { callTool, closeConnection, connectToServer, createServerEnv, isSecretEnvName } from "@mcp-rt/client";
import { describe, expect, it } from "vitest";
import { everythingEntry } from "./helpers.js";
import { checkNoProcessesLeftAfterFile, LEAK_MARKER_VAR } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

describe("isSecretEnvName", () => {
  it.each([
    "GITHUB_TOKEN",
    "github_token",
    "MY_SECRET",
    "client_secret_value",
    "DB_PASSWORD",
    "OPENAI_API_KEY",
    "STRIPE_APIKEY",
    "apiKey",
    "AWS_CREDENTIALS",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "NPM_TOKEN",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "DATABASE_URL",
    "SMTP_PASS",
    "MYSQL_PASSWD",
    "PRIVATE_KEY",
    "DEPLOY_PRIVATE_KEY",
    "SIGNING_KEY",
    "GH_PAT",
    "NPM_CONFIG__AUTH",
    "npm_config__authToken",
    "SENTRY_DSN",
    "SLACK_WEBHOOK_URL",
    "SSH_AUTH_SOCK",
    "JWT",
    "COOKIE",
  ])("treats %s as secret", (name) => {
    expect(isSecretEnvName(name)).toBe(true);
  });

  it.each([
    "PATH",
    "HOME",
    "LANG",
    "NODE_OPTIONS",
    "EDITOR",
    "TERM",
    "KEYBOARD_LAYOUT",
    "PASS_THROUGH",
    "COMPAT",
    "BYPASS",
    "AWS_PROFILE",
    "AWS_REGION",
    "SSH_CONNECTION",
  ])("passes %s on", (name) => {
    expect(isSecretEnvName(name)).toBe(false);
  });
});

describe("createServerEnv", () => {
  it("drops secret-looking names and shell functions, then applies the config's env unfiltered", () => {
    const env = createServerEnv({
      parent: {
        PATH: "/usr/bin",
        GITHUB_TOKEN: "ghp_x",
        OpenAI_Api_Key: "sk-x",
        "BASH_FUNC_foo%%": "() { echo hi; }",
        UNSET: undefined,
        LANG: "C.UTF-8",
      },
      env: { GITHUB_TOKEN: "explicit", DEBUG: "1", LANG: "en_US.UTF-8" },
      platform: "linux",
    });
    expect(env).toEqual({ PATH: "/usr/bin", LANG: "en_US.UTF-8", GITHUB_TOKEN: "explicit", DEBUG: "1" });
  });

  it("passes the names of envPassthrough on as they are, and only those", () => {
    const parent = { PATH: "/bin", GITHUB_TOKEN: "ghp_x", AWS_SECRET_ACCESS_KEY: "aws", SSH_AUTH_SOCK: "/s" };
    expect(
      createServerEnv({ parent, passthrough: ["GITHUB_TOKEN", "UNSET_TOKEN"], platform: "linux" }),
    ).toEqual({
      PATH: "/bin",
      GITHUB_TOKEN: "ghp_x",
    });
    expect(createServerEnv({ parent, passthrough: ["github_token"], platform: "linux" })).toEqual({
      PATH: "/bin",
    });
    expect(createServerEnv({ parent, passthrough: ["github_token"], platform: "win32" })).toMatchObject({
      GITHUB_TOKEN: "ghp_x",
    });
  });

  it("treats names case-insensitively on Windows, keeping the config's spelling", () => {
    const env = createServerEnv({
      parent: { Path: "C:\\Windows" },
      env: { PATH: "C:\\tools" },
      platform: "win32",
    });
    expect(env).toEqual({ PATH: "C:\\tools" });
  });

  it("keeps both spellings apart on POSIX", () => {
    const env = createServerEnv({ parent: { Path: "a" }, env: { PATH: "b" }, platform: "linux" });
    expect(env).toEqual({ Path: "a", PATH: "b" });
  });
});

describe("a real server's environment", () => {
  it("holds the filtered parent environment plus the config's env", async () => {
    const parent = {
      PATH: process.env.PATH,
      [LEAK_MARKER_VAR]: process.env[LEAK_MARKER_VAR],
      VISIBLE_SETTING: "visible",
      GITHUB_TOKEN: "ghp_parent",
      DB_PASSWORD: "hunter2",
      OPENAI_API_KEY: "sk-parent",
      SERVICE_APIKEY: "k",
      MY_SECRET: "s",
      AWS_CREDENTIALS: "c",
      AWS_ACCESS_KEY_ID: "AKIAPARENT",
      DATABASE_URL: "postgres://u:pw@db/x",
      SSH_AUTH_SOCK: "/tmp/agent.sock",
      PASSED_TOKEN: "passed-on-purpose",
    };
    const connection = await connectToServer({
      name: "env",
      config: {
        command: process.execPath,
        args: [everythingEntry],
        env: { EXPLICIT_TOKEN: "given-on-purpose" },
        envPassthrough: ["PASSED_TOKEN"],
      },
      env: parent,
    });
    try {
      const result = await callTool(connection, { name: "get-env", args: {} });
      const block = result.content[0];
      const env = JSON.parse(block?.type === "text" ? block.text : "{}") as Record<string, string>;
      expect(env.VISIBLE_SETTING).toBe("visible");
      expect(env.EXPLICIT_TOKEN).toBe("given-on-purpose");
      expect(env.PASSED_TOKEN).toBe("passed-on-purpose");
      for (const name of [
        "GITHUB_TOKEN",
        "DB_PASSWORD",
        "OPENAI_API_KEY",
        "SERVICE_APIKEY",
        "MY_SECRET",
        "AWS_CREDENTIALS",
        "AWS_ACCESS_KEY_ID",
        "DATABASE_URL",
        "SSH_AUTH_SOCK",
      ]) {
        expect(env).not.toHaveProperty(name);
      }
      expect(JSON.stringify(env)).not.toMatch(/ghp_parent|hunter2|sk-parent|AKIAPARENT|u:pw/);
    } finally {
      await closeConnection(connection);
    }
  });
});
