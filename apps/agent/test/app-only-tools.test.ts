import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fixtureServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { runAgent, useSandbox } from "./agent-process.js";

describe("MCP Apps tools in the agent", () => {
  const sandbox = useSandbox();

  it("/tools lists a tool whose visibility lacks model as app-only, and the model cannot call it", async () => {
    const config = join(sandbox().root, "apps.json");
    await writeFile(config, JSON.stringify({ mcpServers: { ui: fixtureServer({ appTools: true }) } }));
    const run = await runAgent(
      ["--config", config, "--cache", "memory:", "--exec", "/tools", "--exec", "/call mcp_ui_app_refresh {}"],
      sandbox(),
    );
    expect(run.stdout).toContain("mcp_ui_app_view");
    expect(run.stdout).toMatch(/\n {2}mcp_ui_echo\n/);
    expect(run.stdout).not.toMatch(/\n {2}mcp_ui_app_refresh\n/);
    expect(run.stdout).toContain(
      "1 app-only tool (for an MCP App's UI; not given to the model):\n  ui/app_refresh",
    );
    expect(run.stdout).not.toContain("app_refresh called");
  });
});
