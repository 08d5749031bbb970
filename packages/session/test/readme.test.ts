import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { echoServer, isProcessAlive, readPidFile } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { useQuickStart } from "../../../test-support/readme-quick-start.js";

const quickStart = useQuickStart({ readme: new URL("../README.md", import.meta.url), lang: "js" });

describe("the README quick start", () => {
  it("starts a session on the user's config, lists it with /mcp list, and stops every server", async () => {
    const { lines, home, run } = quickStart();
    expect(lines).toBeLessThanOrEqual(15);
    // A server in mcp-rt's own user file; a project file would wait for /mcp trust.
    const pidFile = join(home, "pids");
    await mkdir(join(home, ".mcp-rt"), { recursive: true });
    await writeFile(
      join(home, ".mcp-rt", "mcp.json"),
      JSON.stringify({ mcpServers: { echo: echoServer({ pidFile }), broken: { command: 42 } } }),
    );

    const { exitCode, stdout, stderr, leftBehind } = await run();
    expect({ exitCode, leftBehind }).toEqual({ exitCode: 0, leftBehind: false });
    expect(stdout).toMatch(/● echo\b.*connected/);
    expect(stdout).toMatch(/1 tool/);
    // The broken entry is named, with its file, by the loop over mcpErrors.
    expect(stderr).toMatch(/mcp\.json: .*broken/);
    // dispose() stopped the server it started.
    const pids = readPidFile(pidFile);
    expect(pids).toHaveLength(1);
    expect(isProcessAlive(pids[0]!)).toBe(false);
  });
});
