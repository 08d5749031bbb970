import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectToServer } from "@mcp-rt/client";
import {
  exitServer,
  garbageServer,
  hangingServer,
  isProcessAlive,
  readPidFile,
  slowInitServer,
} from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { useConnections, useTempDir } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const SOURCE = "/home/me/project/.mcp.json";
const dir = useTempDir("mcp-rt-client-");

const { connectError } = useConnections();

describe("connectToServer failures", () => {
  it("reports a missing command as SPAWN_FAILED with what to change", async () => {
    const error = await connectError({
      name: "ghost",
      config: { command: "mcp-rt-no-such-command" },
      sourcePath: SOURCE,
    });
    expect(error.code).toBe("SPAWN_FAILED");
    expect(error.server).toBe("ghost");
    expect(error.message).toBe(
      `Cannot start MCP server "ghost": command not found: mcp-rt-no-such-command (install it or put it on PATH, or fix "command" in ${SOURCE})`,
    );
  });

  it("reports a missing working folder as SPAWN_FAILED naming the folder", async () => {
    const error = await connectError({
      name: "nowhere",
      config: { command: process.execPath, cwd: "does/not/exist" },
      cwd: dir(),
      sourcePath: SOURCE,
    });
    expect(error.code).toBe("SPAWN_FAILED");
    expect(error.message).toBe(
      `Cannot start MCP server "nowhere": working folder does not exist: ${join(dir(), "does/not/exist")} (fix "cwd" in ${SOURCE})`,
    );
  });

  it.skipIf(process.platform === "win32")(
    "reports a command that is not executable as SPAWN_FAILED",
    async () => {
      const script = join(dir(), "server.sh");
      writeFileSync(script, "#!/bin/sh\nexit 0\n");
      chmodSync(script, 0o644);
      const error = await connectError({ name: "noexec", config: { command: script } });
      expect(error.code).toBe("SPAWN_FAILED");
      expect(error.message).toContain(`permission denied running ${script} (make it executable`);
    },
  );

  it("reports a server that exits at start as INIT_FAILED with its exit code and stderr", async () => {
    const error = await connectError({ name: "quitter", config: exitServer(3) });
    expect(error.code).toBe("INIT_FAILED");
    expect(error.message).toMatch(
      /^Connection to MCP server "quitter" failed: process exited with code 3 before initializing\. stderr: \[fixture .*\] exiting at start with code 3/,
    );
    expect(error.stderrTail).toContain("exiting at start with code 3 (--exit-code)");
    expect(error.details).toEqual({ exitCode: 3, signal: null });
  });

  it.skipIf(process.platform === "win32")(
    "reports a server that dies before reading initialize by its exit code, not the broken pipe",
    async () => {
      // Exits before the initialize write reaches it: the write fails with EPIPE first.
      const error = await connectError({
        name: "py",
        config: {
          command: "sh",
          args: ["-c", "echo \"ModuleNotFoundError: No module named 'mcp'\" >&2; exit 1"],
        },
      });
      expect(error.code).toBe("INIT_FAILED");
      expect(error.message).toBe(
        `Connection to MCP server "py" failed: process exited with code 1 before initializing. stderr: ModuleNotFoundError: No module named 'mcp'`,
      );
      expect(error.details).toEqual({ exitCode: 1, signal: null });
    },
  );

  it("says what to check when a server exits at start with code 0, or without a word on stderr", async () => {
    const done = await connectError({ name: "oneshot", config: exitServer(0), sourcePath: SOURCE });
    expect(done.code).toBe("INIT_FAILED");
    expect(done.message).toMatch(
      new RegExp(
        `^Connection to MCP server "oneshot" failed: process exited with code 0 before initializing \\(a stdio MCP server keeps running and reads requests on stdin; check "command" and "args" in ${SOURCE}\\)\\. stderr: .*exiting at start with code 0`,
      ),
    );

    const silent = await connectError({
      name: "silent",
      config: { command: process.execPath, args: ["-e", "process.exit(2)"] },
      sourcePath: SOURCE,
    });
    expect(silent.code).toBe("INIT_FAILED");
    expect(silent.message).toBe(
      `Connection to MCP server "silent" failed: process exited with code 2 before initializing and wrote nothing to stderr (check "command" and "args" in ${SOURCE})`,
    );
  });

  it("times out a server that never answers initialize, and stops it before rejecting", async () => {
    const pidFile = join(dir(), "pids");
    const started = Date.now();
    // Generous: the stderr line is only there if a loaded machine got the fixture
    // (node + the SDK) to read initialize within it.
    const error = await connectError({
      name: "stuck",
      config: { ...hangingServer({ pidFile }), timeout: 6000 },
      sourcePath: SOURCE,
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(error.code).toBe("CONNECT_TIMEOUT");
    expect(error.message).toMatch(
      new RegExp(
        `^Connection to MCP server "stuck" timed out after 6000 ms \\(raise "timeout" in ${SOURCE}\\)\\. stderr: [^\\n]+$`,
      ),
    );
    expect(error.stderrTail).toContain("never answering (--hang-at-init)");
    const [pid] = readPidFile(pidFile);
    expect(pid).toBeGreaterThan(0);
    expect(isProcessAlive(pid!)).toBe(false);
  });

  it("uses config.timeout: a slow init within it connects, one beyond it times out", async () => {
    const error = await connectError({ name: "slow", config: { ...slowInitServer(3000), timeout: 300 } });
    expect(error.code).toBe("CONNECT_TIMEOUT");
    expect(error.message).toContain('timed out after 300 ms (raise "timeout" in the server\'s config)');

    const { closeConnection } = await import("@mcp-rt/client");
    const connection = await connectToServer({
      name: "slow",
      config: { ...slowInitServer(300), timeout: 5000 },
    });
    expect(connection.serverInfo.name).toBe("mcp-rt-fixture");
    await closeConnection(connection);
  });

  it("explains a server that writes garbage on stdout instead of JSON-RPC", async () => {
    // Generous, so that a loaded machine gets the fixture to write its first line within it.
    const error = await connectError({ name: "html", config: { ...garbageServer(), timeout: 5000 } });
    expect(error.code).toBe("CONNECT_TIMEOUT");
    expect(error.message).toContain("it wrote output that is not JSON-RPC on stdout");
    expect(error.message).toContain("Welcome");
    expect(error.message).toContain("an MCP server must log to stderr");
  });

  it("aborts a pending handshake with ABORTED and stops the server first", async () => {
    const pidFile = join(dir(), "pids");
    const controller = new AbortController();
    const error = await connectError({
      name: "aborted",
      config: slowInitServer(10_000, { pidFile }),
      signal: controller.signal,
      // Abort once the server is up and holding on to initialize.
      onStderr: (chunk) => {
        if (chunk.includes("received initialize")) controller.abort();
      },
    });
    expect(error.code).toBe("ABORTED");
    expect(error.message).toBe('Connection to MCP server "aborted" was aborted');
    expect(isProcessAlive(readPidFile(pidFile)[0]!)).toBe(false);
  });

  it("does not start anything when the signal is already aborted", async () => {
    const pidFile = join(dir(), "pids");
    const error = await connectError({
      name: "early",
      config: exitServer(0, { pidFile }),
      signal: AbortSignal.abort(),
    });
    expect(error.code).toBe("ABORTED");
    expect(readPidFile(pidFile)).toEqual([]);
  });

  it("refuses a timeout that is not a positive number of ms as CONFIG_INVALID, before starting anything", async () => {
    const pidFile = join(dir(), "pids");
    const error = await connectError({
      name: "eager",
      config: { ...exitServer(0, { pidFile }), timeout: -1 },
      sourcePath: SOURCE,
    });
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      `MCP server "eager" has an invalid "timeout": -1 is not a positive number of milliseconds (fix "timeout" in ${SOURCE})`,
    );
    const tool = await connectError({
      name: "eager",
      config: { ...exitServer(0, { pidFile }), toolTimeout: Number.NaN },
    });
    expect(tool.message).toContain('invalid "toolTimeout": NaN is not a positive number of milliseconds');
    expect(readPidFile(pidFile)).toEqual([]);
  });

  it("refuses a url that is not http(s) as CONFIG_INVALID naming the field and file", async () => {
    const error = await connectError({
      name: "remote",
      config: { url: "ftp://example.com/mcp" },
      sourcePath: SOURCE,
    });
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      `MCP server "remote" has an invalid "url": "ftp://example.com/mcp" is not an http:// or https:// URL (fix "url" in ${SOURCE})`,
    );
    const relative = await connectError({ name: "remote", config: { type: "http", url: "/mcp" } });
    expect(relative.code).toBe("CONFIG_INVALID");
  });
});
