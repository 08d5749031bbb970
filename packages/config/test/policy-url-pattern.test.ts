import { describe, expect, it } from "vitest";
import { matchesUrlPattern, urlPatternProblem } from "../src/policy/url-pattern.js";

// The patterns and cases of code.claude.com/docs/en/managed-mcp ("URLs support `*` wildcards").
describe("serverUrl patterns, as Claude Code's managed policy documents them", () => {
  it.each([
    ["https://mcp.example.com/*", "https://mcp.example.com/api", true],
    ["https://mcp.example.com/*", "https://other.example.com/api", false],
    ["https://mcp.example.com", "https://mcp.example.com/any/path", true],
    ["https://*.example.com/*", "https://api.example.com/mcp", true],
    ["https://*.example.com/*", "https://api.example.org/mcp", false],
    ["http://localhost:*/*", "http://localhost:3000/mcp", true],
    ["http://localhost:*/*", "https://localhost:3000/mcp", false],
    ["*://mcp.example.com/*", "http://mcp.example.com/mcp", true],
    ["*://mcp.example.com/*", "https://mcp.example.com.evil.io/mcp", false],
    ["https://*.internal.example.com/*", "https://api.internal.example.com/mcp", true],
    ["https://*.internal.example.com/*", "https://external.example.com/mcp", false],
  ])("%s against %s: %s", (pattern, url, expected) => {
    expect(matchesUrlPattern(pattern, url)).toBe(expected);
  });

  it("compares the host without case or a trailing FQDN dot, the path with case", () => {
    expect(matchesUrlPattern("https://Mcp.Example.com/*", "https://mcp.example.com/api")).toBe(true);
    expect(matchesUrlPattern("https://mcp.example.com./*", "https://MCP.example.com/api")).toBe(true);
    expect(matchesUrlPattern("https://mcp.example.com/*", "https://mcp.example.com./api")).toBe(true);
    expect(matchesUrlPattern("https://mcp.example.com/API/*", "https://mcp.example.com/api/x")).toBe(false);
  });

  it("leaves the query and credentials out, so a deny pattern catches them too", () => {
    expect(matchesUrlPattern("https://x.example/mcp", "https://x.example/mcp?token=1")).toBe(true);
    expect(matchesUrlPattern("https://x.example/*", "https://user:pw@x.example/mcp")).toBe(true);
  });

  it("treats regular-expression characters literally", () => {
    expect(matchesUrlPattern("https://a.b/*", "https://aXb/mcp")).toBe(false);
    expect(matchesUrlPattern("https://a.b/(x)", "https://a.b/(x)")).toBe(true);
  });

  it("matches nothing with a URL that does not parse, and names what is wrong with a pattern", () => {
    expect(matchesUrlPattern("*", "not a url")).toBe(false);
    expect(urlPatternProblem("mcp.example.com/*")).toContain("with a scheme and a host");
    expect(urlPatternProblem("")).toContain("empty");
    expect(urlPatternProblem("https://*.example.com/*")).toBeUndefined();
  });
});
