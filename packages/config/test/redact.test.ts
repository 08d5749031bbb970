import { describe, expect, it } from "vitest";
import { isSecretName, REDACTED, redactServerConfig, redactUrl } from "../src/redact.js";

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

  it("hides credentials in a string that is not a URL", () => {
    expect(redactUrl("see https://bob:hunter2@host/x")).toBe(`see https://${REDACTED}@host/x`);
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
