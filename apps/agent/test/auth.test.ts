import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type HttpFixture, startHttpFixture } from "@mcp-rt/testing";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  assertBuilt,
  createSandbox,
  hasScript,
  type LiveProcess,
  runAgent,
  type Sandbox,
  startInTerminal,
  waitForNoProcesses,
} from "./agent-process.js";

describe("credentials in the agent", () => {
  let sandbox: Sandbox;
  let agent: LiveProcess | undefined;
  let server: HttpFixture | undefined;

  beforeAll(() => assertBuilt());
  beforeEach(async () => {
    sandbox = await createSandbox();
  });
  afterEach(async () => {
    if (agent && agent.child.exitCode === null) {
      agent.child.kill("SIGKILL");
      await agent.exited;
    }
    agent = undefined;
    await server?.close();
    server = undefined;
    expect(await waitForNoProcesses(sandbox.marker)).toEqual([]);
    await sandbox.cleanup();
  });

  it.skipIf(!hasScript)(
    "/mcp key in a terminal: the key is typed without echo, kept in the --auth file, and the server starts with it",
    async () => {
      server = await startHttpFixture({ bearerToken: "k-secret-123" });
      const config = join(sandbox.root, "keyed.json");
      await writeFile(
        config,
        JSON.stringify({
          mcpServers: {
            keyed: { url: server.config.url, auth: { type: "apikey", credentialId: "keyed-key" } },
          },
        }),
      );
      const authFile = join(sandbox.root, "auth.json");
      agent = startInTerminal(sandbox, [
        "--config",
        config,
        "--cache",
        "memory:",
        "--auth",
        `file:${authFile}`,
      ]);
      await agent.waitFor(/✗ keyed[\s\S]*› /);

      const mark = agent.output().length;
      agent.write("/mcp key keyed\r");
      await agent.waitFor(/API key for keyed \(input hidden\): /, { from: mark });
      agent.write("k-secret-123\r");
      await agent.waitFor(/Key stored for keyed\.\s+● keyed: connected/, { from: mark });
      expect(agent.output()).not.toContain("k-secret-123");
      expect(JSON.parse(await readFile(authFile, "utf8")).entries).toMatchObject({
        "keyed-key": "k-secret-123",
      });
      expect((await stat(authFile)).mode & 0o777).toBe(0o600);

      agent.write("/quit\r");
      expect(await agent.exited).toBe(0);
    },
    60_000,
  );

  it("an --auth URL it cannot use exits 2 naming the flag", async () => {
    const run = await runAgent(["--auth", "ftp://keys.test", "--exec", "/mcp list"], sandbox);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--auth: /);
    expect(run.stdout).toBe("");
  });
});
