import { join } from "node:path";
import { appConfigDir, builtinSources } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";

describe("builtinSources", () => {
  it("lists the nine providers, highest priority first", () => {
    expect(builtinSources.map((source) => source.id)).toEqual([
      "mcp-rt",
      "claude-code",
      "claude-desktop",
      "codex",
      "antigravity",
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
