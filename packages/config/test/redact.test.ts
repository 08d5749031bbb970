// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are part of what is tested
import { describe, expect, it } from "vitest";
import {
  expansionReferences,
  redactConfigText,
  redactServerConfig,
  scrubSecrets,
  secretValues,
} from "../src/redact.js";
import { isSecretName, REDACTED, redactUrl } from "../src/redact-text.js";
import { useFixtureTrees } from "./helpers.js";

describe("redactUrl", () => {
  it("hides user:pass@ and token-like query parameters, keeps the rest", () => {
    const out = redactUrl(
      "https://alice:s3cr3t@example.com/mcp?token=abc123&page=2&api_key=zz9&exaApiKey=q77",
    );
    expect(out).not.toMatch(/alice|s3cr3t|abc123|zz9|q77/);
    expect(out).toContain("example.com/mcp");
    expect(out).toContain("page=2");
    expect(out).toContain(`token=${REDACTED}`);
    expect(out).toContain(`${REDACTED}:${REDACTED}@`);
  });

  it("returns a URL without secrets exactly as written", () => {
    expect(redactUrl("https://Example.com:443/a/../mcp?x=1")).toBe("https://Example.com:443/a/../mcp?x=1");
  });

  it("hides credentials and token-like parameters in a string that is not a URL", () => {
    expect(redactUrl("see https://bob:hunter2@host/x")).toBe(`see https://${REDACTED}@host/x`);
    expect(redactUrl("api.example/mcp?token=abc&page=2")).toBe(`api.example/mcp?token=${REDACTED}&page=2`);
  });
});

describe("isSecretName", () => {
  it.each([
    ["token", true],
    ["api_key", true],
    ["apiKey", true],
    ["x-api-key", true],
    ["access_token", true],
    ["password", true],
    ["auth", true],
    ["client_secret", true],
    ["page", false],
    ["keyword", false],
    ["author", false],
    ["design", false],
  ])("%s → %s", (name, secret) => {
    expect(isSecretName(name)).toBe(secret);
  });
});

describe("redactServerConfig", () => {
  it("hides env and header values, secret flags and URL credentials, without changing the input", () => {
    const config = {
      command: "npx",
      args: [
        "--api-key=sk-one",
        "--token",
        "sk-two",
        "--verbose",
        "x",
        "https://u:pw@h/?access_token=sk-three",
      ],
      env: { GITHUB_TOKEN: "ghp_secret", LOGIN: "!op read op://vault/item" },
    };
    const before = structuredClone(config);
    const out = redactServerConfig(config);
    expect(config).toEqual(before);
    expect(JSON.stringify(out)).not.toMatch(/sk-one|sk-two|sk-three|ghp_secret|op:\/\/vault|pw@/);
    expect(out.args).toEqual([
      `--api-key=${REDACTED}`,
      "--token",
      REDACTED,
      "--verbose",
      "x",
      `https://${REDACTED}:${REDACTED}@h/?access_token=${REDACTED}`,
    ]);
    expect(out.env).toEqual({ GITHUB_TOKEN: REDACTED, LOGIN: `!${REDACTED}` });
  });

  it("hides headers of an HTTP config and leaves non-objects alone", () => {
    const out = redactServerConfig({ url: "https://h/mcp", headers: { Authorization: "Bearer abc" } });
    expect(out).toEqual({ url: "https://h/mcp", headers: { Authorization: REDACTED } });
    expect(redactServerConfig("text")).toBe("text");
    expect(redactServerConfig(null)).toBe(null);
  });
});

describe("secretValues and scrubSecrets", () => {
  const config = {
    url: "host/mcp?api_key=key-in-url-1&page=22222222",
    headers: { Authorization: "Bearer tok-in-header", "X-Api-Key": 123456789, "X-Team": "platform" },
    env: { SHORT: "abc" },
    args: [7, "--password", "pw-in-args", "--secret=sec-in-flag", "https://user:pw-in-userinfo@h/"],
  };

  it("collects what redactServerConfig hides, skipping values too short to be secrets", () => {
    expect(secretValues(config).sort()).toEqual(
      [
        "Bearer tok-in-header",
        "tok-in-header",
        "123456789",
        "key-in-url-1",
        "pw-in-args",
        "sec-in-flag",
        "user:pw-in-userinfo",
        "pw-in-userinfo",
      ].sort(),
    );
    expect(secretValues("nope")).toEqual([]);
  });

  it("hides them in text that quotes them, even when the args are not all strings", () => {
    const message =
      'url: got "host/mcp?api_key=key-in-url-1", header X-Api-Key: got 123456789, arg pw-in-args, team platform';
    const scrubbed = scrubSecrets(message, secretValues(config));
    expect(scrubbed).toBe(
      `url: got "host/mcp?api_key=${REDACTED}", header X-Api-Key: got ${REDACTED}, arg ${REDACTED}, team platform`,
    );
    expect(JSON.stringify(redactServerConfig(config))).not.toMatch(
      /tok-in-header|key-in-url-1|pw-in|sec-in-flag/,
    );
  });
});

describe("redactConfigText: messages stay readable, secrets do not show", () => {
  const GHP = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
  const RANDOM = "7x2yAXs3UzfRrVvG1ZW-";

  it("keeps plain env values, wherever they appear in a message", () => {
    const broken = { command: "npx", env: { MODE: "server", LOG_LEVEL: "verbose" } };
    const spawn = 'Cannot start MCP server "broken": command not found: npx (mode server, verbose logs)';
    expect(redactConfigText(spawn, { config: broken, server: "broken" })).toBe(spawn);
    const modern = { command: "fixture", env: { FIX_NAME: "modern", FIX_LEGACY: "reject" } };
    const refused =
      'Connection to MCP server "modern" failed: the server rejected "initialize" (reject legacy clients)';
    expect(redactConfigText(refused, { config: modern, server: "modern" })).toBe(refused);
  });

  it("hides secrets by name, by shape and by randomness, inside a longer message", () => {
    const config = {
      command: "npx",
      env: { GITHUB_TOKEN: "hunter2hunter2", GH: GHP, SEED: RANDOM, MODE: "server" },
      headers: { "X-Api-Key": "plainword" },
    };
    const text = `server said: login hunter2hunter2 refused; token ${GHP} (seed=${RANDOM}), key "plainword"`;
    expect(redactConfigText(text, { config })).toBe(
      'server said: login *** refused; token *** (seed=***), key "***"',
    );
  });

  it("hides a secret only where it stands as a whole token", () => {
    const config = { command: "x", env: { DB_PASSWORD: "reject" } };
    expect(redactConfigText('the server rejected "reject"', { config })).toBe('the server rejected "***"');
  });

  it("never hides the server's own name, even when a secret value reads the same", () => {
    const config = { command: "x", env: { SERVICE_TOKEN: "acme-prod" } };
    const text = 'MCP server "acme-prod" stopped: bad token acme-prod';
    expect(redactConfigText(text, { config, server: "acme-prod" })).toBe(text);
    expect(redactConfigText(text, { config })).toBe('MCP server "***" stopped: bad token ***');
  });

  it("hides what a !command produced, whatever its name and shape", () => {
    const resolved = { command: "x", env: { LOGIN: "hunter2hunter2", MODE: "server" } };
    const written = { command: "x", env: { LOGIN: "!pass show login", MODE: "server" } };
    const text = "login hunter2hunter2 refused in server mode";
    expect(redactConfigText(text, { config: resolved, written })).toBe("login *** refused in server mode");
    expect(redactConfigText(text, { config: resolved })).toBe(text);
  });
});

describe("redaction of configs of the wrong shape", () => {
  it("hides env and headers that are not objects, and args items that are not strings", () => {
    const out = redactServerConfig({
      command: "x",
      args: ["--port", 3000, { token: "obj-secret" }],
      env: ["A=env-secret"],
      headers: "Bearer hdr-secret",
    });
    expect(out).toEqual({
      command: "x",
      args: ["--port", REDACTED, REDACTED],
      env: [REDACTED],
      headers: REDACTED,
    });
  });

  it("hides a token-like name=value in a url that is not a URL", () => {
    expect(redactUrl("not a url token=abc123")).toBe(`not a url token=${REDACTED}`);
  });

  it("does not count placeholders as secrets, so messages about them stay readable", () => {
    const secrets = secretValues({
      env: { KEY: "${input:api-key}", B: "Bearer ${TOKEN}", PASSWORD: "real-secret" },
      headers: "whole-header-secret",
    });
    expect(secrets).toContain("real-secret");
    expect(secrets).toContain("whole-header-secret");
    expect(secrets.some((secret) => secret.includes("${"))).toBe(false);
  });
});

describe("redaction by provenance", () => {
  const GHP = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
  const env = { TOKEN: "tok-9f8e7d6c5b4a", GITHUB_TOKEN: GHP, OPAQUE: "plain-words-value", HOME: "/home/u" };

  it("shows the mcp-remote header argument as its file writes it, or hides a literal one", () => {
    const template = {
      command: "npx",
      args: ["mcp-remote", "https://h/mcp", "--header", "Authorization: Bearer ${TOKEN}"],
    };
    const expanded = {
      ...template,
      args: ["mcp-remote", "https://h/mcp", "--header", `Authorization: Bearer ${env.TOKEN}`],
    };
    expect(redactServerConfig(expanded, { template }).args).toEqual(template.args);
    // Without the template the header name still gives it away.
    expect(redactServerConfig(expanded).args?.[3]).toBe(`Authorization: ${REDACTED}`);
    expect(redactServerConfig({ command: "npx", args: ["--header", "X-Api-Key: abc"] }).args).toEqual([
      "--header",
      `X-Api-Key: ${REDACTED}`,
    ]);
  });

  it("shows docker's -e NAME=value from a variable as written, and hides a literal token", () => {
    const template = {
      command: "docker",
      args: [
        "run",
        "-e",
        "GITHUB_PERSONAL_ACCESS_TOKEN=${GITHUB_TOKEN}",
        "-e",
        "LOG=${OPAQUE}",
        "ghcr.io/github/github-mcp-server",
      ],
    };
    const expanded = {
      ...template,
      args: [
        "run",
        "-e",
        `GITHUB_PERSONAL_ACCESS_TOKEN=${GHP}`,
        "-e",
        `LOG=${env.OPAQUE}`,
        "ghcr.io/github/github-mcp-server",
      ],
    };
    expect(redactServerConfig(expanded, { template }).args).toEqual(template.args);
    const literal = redactServerConfig({
      command: "docker",
      args: ["run", "-e", `GITHUB_PERSONAL_ACCESS_TOKEN=${GHP}`],
    });
    expect(literal.args).toEqual(["run", "-e", `GITHUB_PERSONAL_ACCESS_TOKEN=${REDACTED}`]);
    expect(redactServerConfig({ command: "x", args: ["--key-file", "k", GHP] }).args).toEqual([
      "--key-file",
      REDACTED,
      REDACTED,
    ]);
  });

  it("shows env, header, url and auth values that came from a variable as references, literals as ***", () => {
    const template = {
      url: "https://h/${OPAQUE}/mcp?x=${TOKEN}",
      headers: { Authorization: "Bearer ${env:TOKEN}", "X-Team": "core" },
      auth: { type: "oauth", clientId: "${OPAQUE}", clientSecret: "${TOKEN}" },
    };
    const expanded = {
      url: `https://h/${env.OPAQUE}/mcp?x=${env.TOKEN}`,
      headers: { Authorization: `Bearer ${env.TOKEN}`, "X-Team": "core" },
      auth: { type: "oauth", clientId: env.OPAQUE, clientSecret: env.TOKEN },
    };
    const out = redactServerConfig(expanded, { template });
    expect(out).toEqual({
      url: template.url,
      headers: { Authorization: "Bearer ${env:TOKEN}", "X-Team": REDACTED },
      auth: template.auth,
    });
    expect(JSON.stringify(out)).not.toMatch(/tok-9f8e|plain-words/);
  });

  it("finds what an expansion copied from the environment, as the reference to show", () => {
    const config = { command: "x", args: ["--dir", "${HOME}/data", "${OPAQUE}"], env: { A: "1" } };
    const references = expansionReferences(config, { env });
    expect([...references]).toEqual(
      expect.arrayContaining([
        ["/home/u", "${HOME}"],
        [env.OPAQUE, "${OPAQUE}"],
        [env.TOKEN, "${TOKEN}"],
        [GHP, "${GITHUB_TOKEN}"],
      ]),
    );
    const message = `args[2]: got "${env.OPAQUE}" in /home/u/data, token ${GHP}, secret sec-in-flag`;
    expect(scrubSecrets(message, ["sec-in-flag"], references)).toBe(
      'args[2]: got "${OPAQUE}" in ${HOME}/data, token ${GITHUB_TOKEN}, secret ***',
    );
  });
});

describe("validation messages of loadAllMCPConfigs", () => {
  const fixture = useFixtureTrees();

  it("show a value that came from a variable as the variable", async () => {
    const tree = await fixture();
    await tree.writeProject(".mcp.json", {
      mcpServers: { bad: { url: "${SERVICE}/mcp" }, worse: { url: "ftp://h/${SERVICE}" } },
    });
    const result = await tree.load({ env: { SERVICE: "plain-opaque-333" } });
    const messages = result.errors.map((issue) => issue.message);
    expect(messages).toHaveLength(2);
    for (const message of messages) expect(message).not.toContain("plain-opaque-333");
    expect(messages.join("\n")).toContain('got "${SERVICE}/mcp"');
  });
});
