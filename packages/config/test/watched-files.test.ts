// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${workspaceFolder}` is VS Code's placeholder, written as the user writes it
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type CapabilitySource, createNativeSource, hasRuntimeValues } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import type { MCPStdioServerConfig } from "../src/model/server-config.js";
import { resolveServerConfig } from "../src/resolve-server-config.js";
import { useFixtureTrees, useTempDir } from "./helpers.js";

const fixture = useFixtureTrees();
const tempDir = useTempDir("mcp-rt-fresh-");

describe("loadAllMCPConfigs: files, what a watcher follows", () => {
  it("names every built-in file, existing or not, and the envFiles it read or tried to", async () => {
    const tree = await fixture();
    const vscode = await tree.writeProject(".vscode/mcp.json", {
      servers: { dot: { command: "node", envFile: "${workspaceFolder}/.env.mcp" } },
    });
    const result = await tree.load();
    expect(result.files).toEqual([...(result.files ?? [])].sort());
    expect(result.files).toEqual(
      expect.arrayContaining([
        vscode,
        join(tree.project, ".env.mcp"),
        join(tree.project, ".mcp.json"),
        join(tree.project, ".cursor", "mcp.json"),
        join(tree.home, ".claude.json"),
        join(tree.home, ".mcp-rt", "mcp.json"),
        join(tree.home, ".codex", "config.toml"),
      ]),
    );
  });

  it("leaves project-level files out with enableProjectConfig: false", async () => {
    const tree = await fixture();
    const result = await tree.load({ enableProjectConfig: false });
    expect(result.files?.filter((path) => path.startsWith(tree.project))).toEqual([]);
    expect(result.files).toContain(join(tree.home, ".claude.json"));
  });

  it("takes a source's paths, the files of a source without paths from its entries and issues, and the policy files", async () => {
    const tree = await fixture();
    const meta = { provider: "team", providerName: "Team", level: "user" as const };
    const noPaths: CapabilitySource = {
      id: "team",
      name: "Team",
      priority: 5,
      load: async () => ({
        servers: [
          { name: "t", config: { command: "node" }, source: { ...meta, path: "/team/servers.json" } },
        ],
        issues: [
          { path: "/team/broken.json", message: "broken" },
          { path: "source:team", message: "not a file" },
        ],
      }),
    };
    const withPaths: CapabilitySource = {
      id: "later",
      name: "Later",
      priority: 4,
      paths: () => ["/later/servers.json", "relative/ignored.json"],
      load: async () => ({ servers: [], issues: [] }),
    };
    const throwing: CapabilitySource = {
      ...withPaths,
      id: "throws",
      paths: () => {
        throw new Error("no paths today");
      },
    };
    const result = await tree.load({ sources: [noPaths, withPaths, throwing, createNativeSource()] });
    expect(result.files).toEqual(
      [
        // The policy files are followed whatever the sources (fixture trees load as Linux).
        "/etc/claude-code/managed-settings.json",
        "/etc/codex/requirements.toml",
        "/etc/mcp-rt/policy.json",
        "/later/servers.json",
        "/team/broken.json",
        "/team/servers.json",
        join(tree.home, ".mcp-rt", "mcp.json"),
        join(tree.project, ".mcp-rt", "mcp.json"),
      ].sort(),
    );
  });
});

describe("resolveServerConfig: fresh, and hasRuntimeValues", () => {
  it("runs a !command again with fresh, and keeps the new output for the next connect", async () => {
    const file = join(tempDir(), "token");
    await writeFile(file, "one");
    const config: MCPStdioServerConfig = { command: "node", env: { TOKEN: `!cat ${file}` } };
    const envOf = async (fresh?: boolean) =>
      (
        (await resolveServerConfig({
          name: "s",
          config,
          ...(fresh ? { fresh } : {}),
        })) as MCPStdioServerConfig
      ).env;
    expect(await envOf()).toEqual({ TOKEN: "one" });
    await writeFile(file, "two");
    expect(await envOf()).toEqual({ TOKEN: "one" });
    expect(await envOf(true)).toEqual({ TOKEN: "two" });
    expect(await envOf()).toEqual({ TOKEN: "two" });
  });

  it("tells configs whose resolution may change from those it never changes", () => {
    expect(hasRuntimeValues({ command: "node", env: { A: "!op read x" } })).toBe(true);
    expect(hasRuntimeValues({ url: "https://h/mcp", headers: { Authorization: "!gh auth token" } })).toBe(
      true,
    );
    expect(hasRuntimeValues({ url: "https://h/mcp", auth: { type: "apikey", credentialId: "k" } })).toBe(
      true,
    );
    expect(
      hasRuntimeValues({ url: "https://h/mcp", auth: { type: "oauth", clientSecret: "!op read s" } }),
    ).toBe(true);
    expect(hasRuntimeValues({ command: "node", env: { A: "!!literal", B: "plain" }, args: ["!x"] })).toBe(
      false,
    );
    expect(hasRuntimeValues({ url: "https://h/mcp", auth: { type: "oauth", clientSecret: "s" } })).toBe(
      false,
    );
  });
});
