import { describe, expect, it } from "vitest";
import { useQuickStart } from "../../../test-support/readme-quick-start.js";
import { everythingDir } from "./helpers.js";
import { checkNoProcessesLeftAfterFile, LEAK_MARKER_VAR, leftoverProcesses } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

// server-everything as `npm install` would leave it, so the README's `npx -y` needs no network.
const quickStart = useQuickStart({
  readme: new URL("../README.md", import.meta.url),
  install: { "@modelcontextprotocol/server-everything": everythingDir },
});

describe("the README quick start", () => {
  it("starts a server with npx, lists its tools, calls echo and closes it", {
    timeout: 120_000,
  }, async () => {
    const { lines, run } = quickStart();
    expect(lines).toBeLessThanOrEqual(15);
    const marker = process.env[LEAK_MARKER_VAR];
    // The marker reaches the server through npx, so a server left running is found even once re-parented.
    const { exitCode, stdout, stderr, leftBehind } = await run({ env: { [LEAK_MARKER_VAR]: marker } });
    expect(stderr).toBe('MCP server "everything" was closed by the client\n'); // onClose's reason
    expect(exitCode).toBe(0);
    expect(leftBehind).toBe(false);
    expect(stdout).toMatch(/^\[\n {2}'echo',\n {2}'get-annotated-message',\n/);
    expect(stdout).toContain("[ { type: 'text', text: 'Echo: hello' } ]\n");
    // closeConnection resolved only once the server's whole group was gone.
    expect(leftoverProcesses(marker)).toEqual([]);
  });
});
