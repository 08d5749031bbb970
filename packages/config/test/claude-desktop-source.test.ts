import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createClaudeDesktopSource } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

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
