import { join } from "node:path";
import type { LoadConfigsResult } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { type FixtureTree, useFixtureTrees, writeAt } from "./helpers.js";

const fixture = useFixtureTrees();

/**
 * A fixture whose Codex `requirements.toml` (as `/etc/codex/requirements.toml`
 * on Unix) holds `requirements`, written as Codex's managed-configuration
 * documentation and configuration reference show it.
 */
async function withRequirements(requirements: string): Promise<{
  tree: FixtureTree;
  file: string;
  load(): Promise<LoadConfigsResult>;
}> {
  const tree = await fixture();
  const systemRoot = join(tree.root, "system");
  const file = await writeAt(systemRoot, "etc/codex/requirements.toml", requirements);
  return { tree, file, load: () => tree.load({ systemRoot }) };
}

const CODEX_SERVERS = `
[mcp_servers.docs]
command = "codex-mcp"
args = ["--verbose"]

[mcp_servers.remote]
url = "https://example.com/mcp"

[mcp_servers.renamed]
command = "codex-mcp"

[mcp_servers.lookalike]
url = "https://example.com/mcp"
`;

const blocked = (result: LoadConfigsResult): Record<string, string> =>
  Object.fromEntries(
    (result.blocked ?? []).map((entry) => [`${entry.source.provider}:${entry.name}`, entry.rule]),
  );

describe("Codex's requirements.toml [mcp_servers], for Codex's servers", () => {
  it("starts a server only when an entry of its name has an identity that matches it", async () => {
    const { tree, file, load } = await withRequirements(`
allowed_sandbox_modes = ["read-only", "workspace-write"]

[mcp_servers.docs.identity]
command = "codex-mcp"

[mcp_servers.remote.identity]
url = "https://example.com/mcp"

[mcp_servers.lookalike.identity]
url = "https://example.com/other"
`);
    await tree.writeHome(".codex/config.toml", CODEX_SERVERS);
    // Another client's server of a name Codex's requirements do not list is not Codex's business.
    await tree.writeHome(".cursor/mcp.json", { mcpServers: { cursor: { command: "anything" } } });
    const result = await load();
    // The command form checks the command only: `args` are not inspected.
    expect(Object.keys(result.configs).sort()).toEqual(["cursor", "docs", "remote"]);
    expect(blocked(result)).toEqual({
      "codex:renamed": 'mcp_servers has no entry named "renamed"',
      "codex:lookalike":
        'mcp_servers.lookalike.identity (url = "https://example.com/other") does not match its URL',
    });
    expect(result.blocked?.every((entry) => entry.policy === "codex" && entry.policyFile === file)).toBe(
      true,
    );
  });

  it("restricts nothing without [mcp_servers], and allows no server with an empty one", async () => {
    const open = await withRequirements('allowed_approval_policies = ["on-request"]\n');
    await open.tree.writeHome(".codex/config.toml", CODEX_SERVERS);
    expect(Object.keys((await open.load()).configs)).toHaveLength(4);

    const closed = await withRequirements("mcp_servers = {}\n");
    await closed.tree.writeHome(".codex/config.toml", CODEX_SERVERS);
    const result = await closed.load();
    expect(result.configs).toEqual({});
    expect(new Set(Object.values(blocked(result)))).toEqual(
      new Set(["mcp_servers is empty: no Codex server may start"]),
    );
  });

  it("matches the matcher forms: an exact executable with ordered argument matchers, a URL matcher", async () => {
    const { tree, load } = await withRequirements(`
[mcp_servers.shell.identity.command]
executable = "company-cli"
args = [
  { match = "exact", value = "approved" },
  { match = "prefix", value = "tenant-" },
  { match = "regex", expression = "[a-z]+-[0-9]+" },
]

[mcp_servers.docs.identity]
url = { match = "prefix", value = "https://docs.example/" }
`);
    await tree.writeHome(
      ".codex/config.toml",
      `
[mcp_servers.shell]
command = "company-cli"
args = ["approved", "tenant-acme", "build-42"]

[mcp_servers.docs]
url = "https://docs.example/mcp"
`,
    );
    await tree.writeProject(
      ".codex/config.toml",
      `
[mcp_servers.shell]
command = "company-cli"
args = ["approved", "tenant-acme", "build-42", "--extra"]
`,
    );
    const result = await load();
    expect(Object.keys(result.configs)).toEqual(["docs"]);
    // The project's entry wins its name, and has one argument more than the matchers allow.
    expect(blocked(result)["codex:shell"]).toContain("does not match its command");

    await tree.writeProject(
      ".codex/config.toml",
      '[mcp_servers.shell]\ncommand = "company-cli"\nargs = ["approved", "tenant-acme", "build-42x"]\n',
    );
    // A regex must match the whole argument.
    expect(blocked(await load())["codex:shell"]).toContain("does not match its command");
  });

  it.each([
    ["a file that does not parse", "[mcp_servers.docs.identity\n", "line 1"],
    [
      "an entry without an identity",
      '[mcp_servers.docs]\ncommand = "codex-mcp"\n',
      "mcp_servers.docs: must have an identity table",
    ],
    [
      "an identity with both forms",
      '[mcp_servers.docs.identity]\ncommand = "a"\nurl = "https://a"\n',
      "exactly one of command or url",
    ],
    [
      "a regex that is not valid",
      '[mcp_servers.docs.identity]\nurl = { match = "regex", expression = "(" }\n',
      "not a valid regular expression",
    ],
  ])(
    "fails closed on %s: every Codex server is blocked, others start",
    async (_label, requirements, problem) => {
      const { tree, file, load } = await withRequirements(requirements);
      await tree.writeHome(".codex/config.toml", CODEX_SERVERS);
      await tree.writeHome(".cursor/mcp.json", { mcpServers: { cursor: { command: "anything" } } });
      const result = await load();
      expect(Object.keys(result.configs)).toEqual(["cursor"]);
      expect(result.blocked).toHaveLength(4);
      const issue = result.errors.find((error) => error.path === file);
      expect(issue?.message).toContain(problem);
      expect(issue?.message).toContain("every Codex server is blocked until the file is fixed");
    },
  );
});
