import { realpathSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { validateServerConfig } from "@mcp-rt/config";
import { describe, expect, it } from "vitest";
import { useQuickStart } from "../../../test-support/readme-quick-start.js";

const quickStart = useQuickStart({ readme: new URL("../README.md", import.meta.url) });

describe("the README quick start", () => {
  it("prints each server with its client, warns about a bad entry, reports one shadowed", async () => {
    const { code, lines, dir, run } = quickStart();
    expect(lines).toBeLessThanOrEqual(15);
    // A project with Claude Code's and Cursor's files; the run's HOME is an empty temp folder.
    const servers = {
      github: { command: "npx", args: ["-y", "github-mcp"] },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: an unset ${VAR} is the bad entry
      token: { command: "token-mcp", env: { TOKEN: "${TOKEN}" } },
    };
    await writeFile(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
    await mkdir(join(dir, ".cursor"));
    await writeFile(
      join(dir, ".cursor", "mcp.json"),
      JSON.stringify({ mcpServers: { github: { url: "https://example.com/mcp" } } }),
    );
    const project = realpathSync(dir);

    const { exitCode, stdout, stderr, leftBehind } = await run();
    expect({ exitCode, leftBehind }).toEqual({ exitCode: 0, leftBehind: false });
    expect(stdout.split("\n")).toEqual([
      "github from Claude Code needs approval",
      `github is defined again in ${join(project, ".mcp.json")}`,
      "",
    ]);
    // The one warning names the server, the field and the file.
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toContain("servers.token:");
    expect(stderr).toContain("env.TOKEN");
    expect(stderr).toContain(join(project, ".mcp.json"));
    // What the block's comment says validateServerConfig returns.
    expect(code).toContain(
      `\n// ${JSON.stringify(validateServerConfig("db", { command: "pg-mcp", timeout: -5 }))}\n`,
    );
  });
});
