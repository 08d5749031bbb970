import { describe, expect, it } from "vitest";
import { isTokenLike, REDACTED, redactText, redactUrl } from "../src/redact-text.js";

// Shaped like real credentials, none of them real.
const GHP = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
const PAT = "github_pat_11ABCDEFG0abcdefghij_klmnopqrstuvwxyz0123456789";
const SK = "sk-proj-Abc123def456GHI789jkl";
const XOXB = "xoxb-1234567890-0987654321-AbCdEfGhIjKl";
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const ZAPIER = "ZjNmYTk0ZDItM2Q1Ny00YjQ2LWE2NjAtOTBkMmQ5NzFmYzQ3OjE4ZGJkY2Vk";
const UUID = "9f1c2e4a-7b3d-4c5e-8f6a-1b2c3d4e5f60";

describe("token shapes", () => {
  it.each([GHP, PAT, SK, XOXB, JWT])("%s is a known shape, hidden anywhere", (word) => {
    expect(isTokenLike(word)).toBe(true);
    expect(redactText(`value ${word} here`)).toBe(`value ${REDACTED} here`);
  });

  it.each([ZAPIER, UUID, "0123456789abcdef0123456789abcdef"])(
    "%s looks like a token in a URL, but free text keeps it (request ids)",
    (word) => {
      expect(isTokenLike(word)).toBe(true);
      expect(redactText(`request ${word} failed`)).toBe(`request ${word} failed`);
    },
  );

  it.each(["server-everything", "my-project-2024-production", "v1", "mcp", "index.html", "2025-06-18"])(
    "%s does not",
    (word) => {
      expect(isTokenLike(word)).toBe(false);
    },
  );

  it("hides Bearer and Basic credentials but keeps prose and references", () => {
    expect(redactText("Authorization: Bearer abc123def")).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactText("basic dXNlcjpwYXNzd29yZA==")).toBe(`basic ${REDACTED}`);
    expect(redactText("the server wants Bearer authentication")).toBe(
      "the server wants Bearer authentication",
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference is what is shown
    expect(redactText("Bearer ${TOKEN}")).toBe("Bearer ${TOKEN}");
  });

  it("hides secret-named NAME=value pairs and tokens inside longer text", () => {
    expect(redactText("GITHUB_PERSONAL_ACCESS_TOKEN=abc")).toBe(`GITHUB_PERSONAL_ACCESS_TOKEN=${REDACTED}`);
    expect(redactText(`failed: ${SK} rejected`)).toBe(`failed: ${REDACTED} rejected`);
    expect(redactText("SMTP_PASS=hunter2 MODE=fast")).toBe(`SMTP_PASS=${REDACTED} MODE=fast`);
  });
});

describe("redactUrl beyond credentials and token-named parameters", () => {
  it("hides a token in the path (Zapier, Composio)", () => {
    expect(redactUrl(`https://mcp.zapier.com/api/mcp/s/${ZAPIER}/mcp`)).toBe(
      `https://mcp.zapier.com/api/mcp/s/${REDACTED}/mcp`,
    );
    expect(redactUrl(`https://mcp.composio.dev/composio/server/${UUID}/mcp?transport=sse`)).toBe(
      `https://mcp.composio.dev/composio/server/${REDACTED}/mcp?transport=sse`,
    );
    expect(redactUrl(`https://actions.zapier.com/mcp/${SK}/sse`)).toBe(
      `https://actions.zapier.com/mcp/${REDACTED}/sse`,
    );
  });

  it("hides parameters the name list misses when their value looks like a token, and OAuth's code", () => {
    const out = redactUrl(`https://h/mcp?user_id=${UUID}&code=abc&lang=en&jwt=x1&pat=y2#access_token=${JWT}`);
    expect(out).toBe(
      `https://h/mcp?user_id=${REDACTED}&code=${REDACTED}&lang=en&jwt=${REDACTED}&pat=${REDACTED}#access_token=${REDACTED}`,
    );
  });

  it("hides a path token in a string that is not a URL", () => {
    expect(redactUrl(`mcp.zapier.com/api/mcp/s/${ZAPIER}/mcp`)).toBe(
      `mcp.zapier.com/api/mcp/s/${REDACTED}/mcp`,
    );
    expect(redactText(`cannot reach https://mcp.zapier.com/api/mcp/s/${ZAPIER}/mcp (ECONNREFUSED)`)).toBe(
      `cannot reach https://mcp.zapier.com/api/mcp/s/${REDACTED}/mcp (ECONNREFUSED)`,
    );
  });
});
