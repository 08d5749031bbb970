// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in fixture configs are part of what is tested
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_SECRETS, useCliFixture, writeAt } from "./helpers.js";

// The built bin, run as a user runs it, over a fixture home and project.
const fx = useCliFixture();
const { PROJECT_KEY } = CLI_SECRETS;

describe("mcp-rt-config trust / untrust", () => {
  it("approves the project, asks again when .mcp.json changes, and revokes", async () => {
    expect(fx.statuses().lint).toEqual(["claude-code:needs approval"]);

    const trust = fx.cli("trust");
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain("Approved 2 project-level servers");
    expect(trust.stdout).toContain("npx lint-mcp");
    expect(trust.stdout).not.toContain(PROJECT_KEY);
    expect(fx.statuses().lint).toEqual(["claude-code:active"]);
    expect(fx.statuses().docs).toEqual(["claude-code:active", "cursor:shadowed"]);

    await writeAt(fx.project, ".mcp.json", {
      mcpServers: { lint: { command: "npx", args: ["lint-mcp", "--evil"] }, docs: { command: "docs-local" } },
    });
    expect(fx.statuses().lint).toEqual(["claude-code:needs approval"]);

    expect(fx.cli("trust").code).toBe(0);
    expect(fx.statuses().lint).toEqual(["claude-code:active"]);
    const untrust = fx.cli("untrust");
    expect(untrust.code).toBe(0);
    expect(untrust.stdout).toContain("no longer approved");
    expect(fx.statuses().lint).toEqual(["claude-code:needs approval"]);
  });

  it("shows args that came from a variable as the variable", async () => {
    await writeAt(fx.project, ".mcp.json", {
      mcpServers: {
        remote: {
          command: "npx",
          args: ["mcp-remote", "https://h.example/mcp", "--header", "Authorization: Bearer ${GH_TOKEN}"],
        },
        plain: { command: "tool", args: ["${OPAQUE_ARG}"] },
      },
    });
    const trust = fx.cli("trust");
    expect(trust.code).toBe(0);
    expect(trust.stdout).not.toContain(CLI_SECRETS.GH_TOKEN);
    expect(trust.stdout).not.toContain(CLI_SECRETS.OPAQUE);
    expect(trust.stdout).toContain("Authorization: Bearer ${GH_TOKEN}");
  });

  it("has nothing to approve in a folder without project servers", async () => {
    await rm(join(fx.project, ".mcp.json"));
    const { code, stdout } = fx.cli("trust");
    expect(code).toBe(0);
    expect(stdout).toContain("No project-level MCP servers to approve");
  });
});
