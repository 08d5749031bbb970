import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ExplainJson } from "../src/cli/explain-command.js";
import type { ListJson } from "../src/cli/list-command.js";
import { type CliFixture, useCliFixture } from "./helpers.js";

const fx = useCliFixture();

/** Writes an mcp-rt policy outside the project and returns the environment that names it. */
async function policy(fixture: CliFixture, content: string | object): Promise<{ MCP_RT_POLICY: string }> {
  const path = join(dirname(fixture.home), "admin", "policy.json");
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content));
  return { MCP_RT_POLICY: path };
}

describe("mcp-rt-config and a policy", () => {
  it("list names the rule and the file of each server a policy forbids, user's and project's alike", async () => {
    const env = await policy(fx, { deniedMcpServers: [{ serverName: "github" }, { serverName: "lint" }] });
    const { code, stdout } = fx.cliWithEnv(env, "list");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^github\s+http\s+Cursor\s+user\s+\S+\s+blocked$/m);
    expect(stdout).toMatch(/^lint\s+stdio\s+Claude Code\s+project\s+\S+\s+blocked$/m);
    expect(stdout).toContain(
      `github (Cursor, ~/.cursor/mcp.json): forbidden by mcp-rt's policy (${env.MCP_RT_POLICY}): deniedMcpServers: { "serverName": "github" }; no config file or option here overrides it`,
    );
    // Blocked, not waiting for an approval that could never start it.
    expect(stdout).not.toMatch(/^lint\b.*needs approval$/m);

    const json = JSON.parse(fx.cliWithEnv(env, "list", "--json").stdout) as ListJson;
    expect(json.servers.find((server) => server.name === "github")).toMatchObject({
      status: "blocked",
      blockedBy: {
        policy: "mcp-rt",
        rule: 'deniedMcpServers: { "serverName": "github" }',
        policyFile: env.MCP_RT_POLICY,
      },
    });
    // Without the policy the same server is active: the fixture is not what blocks it.
    expect(fx.statuses().github).toEqual(["cursor:active"]);
  });

  it("explain names the rule and the file, as text and JSON", async () => {
    const env = await policy(fx, { allowedMcpServers: [{ serverUrl: "https://docs.example/*" }] });
    const text = fx.cliWithEnv(env, "explain", "github").stdout;
    expect(text).toContain('Server "github": blocked');
    expect(text).toContain(
      `why: forbidden by mcp-rt's policy (${env.MCP_RT_POLICY}): allowedMcpServers: no serverUrl entry matches its URL`,
    );
    const json = JSON.parse(fx.cliWithEnv(env, "explain", "github", "--json").stdout) as ExplainJson;
    expect(json.status).toBe("blocked");
    expect(json.entries[0]?.blockedBy?.policyFile).toBe(env.MCP_RT_POLICY);
  });

  it("shows a malformed policy as a file problem, and every server blocked by it", async () => {
    const env = await policy(fx, "{ nope");
    const { stdout } = fx.cliWithEnv(env, "list");
    const json = JSON.parse(fx.cliWithEnv(env, "list", "--json").stdout) as ListJson;
    expect(json.servers.filter((server) => server.status === "active")).toEqual([]);
    expect(json.errors.find((error) => error.path === env.MCP_RT_POLICY)?.message).toContain(
      "every MCP server is blocked until the file is fixed",
    );
    expect(stdout).toContain("File problems:");
    expect(stdout).toContain("the policy file cannot be used (line 1, column 3: invalid JSON");
  });
});
