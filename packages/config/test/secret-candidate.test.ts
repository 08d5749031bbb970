// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` references are what a scrubbed message shows
import { describe, expect, it } from "vitest";
import { isSecretCandidate, looksRandom } from "../src/secret-candidate.js";
import { containsToken, wholeTokenPattern } from "../src/whole-token.js";

// Made with node:crypto (base64url, base64, hex): what a service hands out as a key.
const RANDOM = [
  "7x2yAXs3UzfRrVvG1ZW-",
  "02a0e4cd7dd6bb302f101d6a",
  "Fg1DnY_Vb-BVZ9-qn4_JExaidns-lfv1Yg4ObQoR",
];

// What `env` and `headers` hold besides secrets: modes, names, paths, versions, models, dates.
const PLAIN = [
  "server",
  "modern",
  "reject",
  "production",
  "/usr/local/lib/node_modules",
  "@modelcontextprotocol/server-filesystem",
  "gpt-4o-mini-2024-07-18",
  "claude-3-5-sonnet-20241022",
  "us-east-1-prod-db-replica-02",
  "2024-07-18T10:20:00Z",
  "v1.2.3-beta.4+build.5678",
  "HelloWorld123456",
  "https://api.example.com/v1?page=2",
  "application/json",
];

describe("looksRandom", () => {
  it.each(RANDOM)("takes %s for a generated key", (value) => {
    expect(looksRandom(value)).toBe(true);
  });

  it.each(PLAIN)("takes %s for a plain value", (value) => {
    expect(looksRandom(value)).toBe(false);
  });

  it("needs 16 characters, letters and digits, and no spaces", () => {
    expect(looksRandom("7x2yAXs3UzfRrVv")).toBe(false);
    expect(looksRandom("xKqJvMwPzRtBnHgFaSdE")).toBe(false);
    expect(looksRandom("7x2yAXs3 UzfRrVvG1ZW")).toBe(false);
  });
});

describe("isSecretCandidate", () => {
  it.each([
    ["GITHUB_TOKEN", "hunter2hunter2"],
    ["DB_PASSWORD", "correct horse battery staple"],
    ["Authorization", "Bearer abc-123-def"],
    ["X-Api-Key", "plainword"],
    ["EXA_KEY", "plainword"],
    ["SMTP_PASS", "plainword"],
  ])("by its key's name: %s=%s", (key, value) => {
    expect(isSecretCandidate(key, value)).toBe(true);
  });

  it.each([
    ["GH", "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"],
    ["LLM", "sk-ant-api03-abcdefghijklmnop"],
    ["ID", "fc5a6b0e-7d3a-4b1e-9c2f-8a7b6c5d4e3f"],
    ["DB", "postgres://app:hunter22@db.internal/app"],
    ["X-Upstream", "Bearer 8f3kq9zq0wq"],
  ])("by its shape: %s=%s", (key, value) => {
    expect(isSecretCandidate(key, value)).toBe(true);
  });

  it.each(RANDOM)("by its randomness: SEED=%s", (value) => {
    expect(isSecretCandidate("SEED", value)).toBe(true);
  });

  it.each(PLAIN)("not a plain value under a plain name: MODE=%s", (value) => {
    expect(isSecretCandidate("MODE", value)).toBe(false);
  });

  it("not a value shorter than 6 characters, whatever its name", () => {
    expect(isSecretCandidate("API_TOKEN", "abc12")).toBe(false);
  });

  it("every value of an env without names (the wrong shape)", () => {
    expect(isSecretCandidate(undefined, "server")).toBe(true);
  });
});

describe("wholeTokenPattern", () => {
  it("matches a value standing alone, not inside a longer word", () => {
    expect("the server rejected it".replace(wholeTokenPattern("reject"), "***")).toBe(
      "the server rejected it",
    );
    expect('key "reject" refused'.replace(wholeTokenPattern("reject"), "***")).toBe('key "***" refused');
    expect(containsToken("secretary", "secret")).toBe(false);
    expect(containsToken("key_secret", "secret")).toBe(false);
    expect(containsToken("token=secret;", "secret")).toBe(true);
  });

  it("needs no boundary where the value's own edge is punctuation", () => {
    expect("/home/u/data".replace(wholeTokenPattern("/home/u"), "${HOME}")).toBe("${HOME}/data");
    expect(containsToken("/home/user", "/home/u")).toBe(false);
    expect(containsToken("x=YOCa+iK/NK==,", "YOCa+iK/NK==")).toBe(true);
  });

  it("takes regular-expression characters literally", () => {
    expect(containsToken("a.b", "a*b")).toBe(false);
    expect("pw (a+b)? here".replace(wholeTokenPattern("(a+b)?"), "***")).toBe("pw *** here");
  });
});
