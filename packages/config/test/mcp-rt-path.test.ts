import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcpRtPath } from "../src/index.js";

describe("mcpRtPath", () => {
  it("puts each file in the given folder's .mcp-rt/", () => {
    expect(mcpRtPath("trust.json", "/home/ann")).toBe(join("/home/ann", ".mcp-rt", "trust.json"));
    expect(mcpRtPath("mcp.json", "/work/project")).toBe(join("/work/project", ".mcp-rt", "mcp.json"));
  });

  it("defaults to the user's home folder", () => {
    expect(mcpRtPath("auth.json")).toBe(join(homedir(), ".mcp-rt", "auth.json"));
    expect(mcpRtPath("cache-key", undefined)).toBe(join(homedir(), ".mcp-rt", "cache-key"));
  });
});
