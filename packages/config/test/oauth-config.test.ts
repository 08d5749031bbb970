// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders are part of what is tested
import { describe, expect, it } from "vitest";
import { interpolateServerConfig } from "../src/interpolate.js";
import { McpRtError } from "../src/model/errors.js";
import { type MCPHttpServerConfig, MCPHttpServerConfigSchema } from "../src/model/server-config.js";
import { redactServerConfig, secretValues } from "../src/redact.js";
import { resolveServerConfig } from "../src/resolve-server-config.js";
import { mapCursorEntry } from "../src/sources/cursor.js";
import { mapGeminiEntry } from "../src/sources/gemini.js";
import { validateServerConfig } from "../src/validate-server-config.js";

const SECRET = "client-secret-8f3a2c";
const url = "https://mcp.example.com/mcp";

describe('auth: { type: "oauth" } fields', () => {
  it("accepts clientId, clientSecret, clientMetadataUrl, scope and callbackPort", () => {
    const config = {
      url,
      auth: {
        type: "oauth",
        clientId: "my-app",
        clientSecret: SECRET,
        clientMetadataUrl: "https://app.example.com/oauth/client.json",
        scope: "repo read:org",
        callbackPort: 8765,
      },
    };
    expect(validateServerConfig("gh", config)).toEqual([]);
    expect(MCPHttpServerConfigSchema.safeParse(config).success).toBe(true);
  });

  it("refuses a secret without a client id, and a metadata URL that is not https with a path", () => {
    const problems = validateServerConfig("gh", {
      url,
      auth: { type: "oauth", clientSecret: SECRET, clientMetadataUrl: "http://app.example.com/" },
    });
    expect(problems).toEqual([
      "servers.gh.auth.clientSecret: needs auth.clientId: a client secret belongs to a pre-registered client id",
      'servers.gh.auth.clientMetadataUrl: must be an https:// URL with a path (the client\'s metadata document), got "http://app.example.com/"',
    ]);
  });

  it("never quotes a secret of the wrong type back", () => {
    const problems = validateServerConfig("gh", {
      url,
      auth: { type: "oauth", clientId: "a", clientSecret: 12345678 },
    });
    expect(problems.join("\n")).not.toContain("12345678");
  });

  it("expands ${VAR} in clientSecret and clientMetadataUrl when configs are loaded", async () => {
    const { config, missing } = await interpolateServerConfig(
      {
        url,
        auth: {
          type: "oauth",
          clientId: "a",
          clientSecret: "${SECRET}",
          clientMetadataUrl: "https://${HOST}/c.json",
        },
      },
      { env: { SECRET, HOST: "app.example.com" }, cwd: "/p" },
    );
    expect(missing).toEqual([]);
    expect((config as MCPHttpServerConfig).auth).toMatchObject({
      clientSecret: SECRET,
      clientMetadataUrl: "https://app.example.com/c.json",
    });
  });

  it("runs a !command clientSecret at connect time, and never names the command's output in errors", async () => {
    const config: MCPHttpServerConfig = {
      url,
      auth: { type: "oauth", clientId: "a", clientSecret: `!printf ${SECRET}` },
    };
    const resolved = await resolveServerConfig({ name: "gh", config });
    expect(resolved.auth).toMatchObject({ clientSecret: SECRET });
    expect(config.auth).toMatchObject({ clientSecret: `!printf ${SECRET}` });

    const failing: MCPHttpServerConfig = {
      url,
      auth: { type: "oauth", clientId: "a", clientSecret: "!exit 3" },
    };
    const error = await resolveServerConfig({ name: "gh", config: failing }).catch((e: unknown) => e);
    expect(McpRtError.isInstance(error) && error.code).toBe("SHELL_FAILED");
    expect(String(error)).toContain("auth.clientSecret");
  });

  it("hides clientSecret when a config is shown, and lists it among the secrets to scrub", () => {
    const config = { url, auth: { type: "oauth", clientId: "a", clientSecret: SECRET } };
    expect(JSON.stringify(redactServerConfig(config))).not.toContain(SECRET);
    expect(redactServerConfig(config).auth).toEqual({ type: "oauth", clientId: "a", clientSecret: "***" });
    expect(secretValues(config)).toContain(SECRET);
  });
});

describe("OAuth blocks of other clients' files", () => {
  it("Cursor's auth.CLIENT_SECRET and Gemini's oauth.clientSecret become auth.clientSecret", () => {
    expect(
      mapCursorEntry({ url, auth: { CLIENT_ID: "c", CLIENT_SECRET: "${env:S}", scopes: ["a", "b"] } }).config,
    ).toMatchObject({ auth: { type: "oauth", clientId: "c", clientSecret: "${env:S}", scope: "a b" } });
    expect(
      mapGeminiEntry({ httpUrl: url, oauth: { enabled: true, clientId: "g", clientSecret: "$S" } }).config,
    ).toMatchObject({ auth: { type: "oauth", clientId: "g", clientSecret: "$S" } });
  });
});
