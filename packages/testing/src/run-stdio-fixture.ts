import { createInterface } from "node:readline";
import type { FixtureHooks } from "./fixture-mcp-server.js";
import type { FixtureOptions } from "./fixture-options.js";

/** Serves the fixture over this process's stdin/stdout. */
export async function runStdioFixture(options: FixtureOptions, hooks: FixtureHooks): Promise<void> {
  // A well-behaved stdio server exits when its client goes away; the
  // SIGTERM-ignoring one deliberately does not.
  const leave = (why: string): void => {
    if (options.ignoreSigterm) hooks.log(`${why}; staying alive (--ignore-sigterm)`);
    else hooks.exit(0, why);
  };
  process.stdin.on("end", () => leave("stdin closed"));
  process.stdout.on("error", () => leave("stdout closed"));

  if (options.garbageStdout) {
    process.stdout.write("Welcome! This program does not speak JSON-RPC.\n");
    let lines = 0;
    createInterface({ input: process.stdin }).on("line", () => {
      process.stdout.write(`garbage reply #${++lines}: <html>not json</html>\n`);
    });
    return;
  }

  const [{ StdioServerTransport }, { connectFixture, createFixtureMcpServer }] = await Promise.all([
    import("@modelcontextprotocol/server/stdio"),
    import("./fixture-mcp-server.js"),
  ]);
  const mcp = createFixtureMcpServer(options, hooks);
  const transport = new StdioServerTransport();
  await connectFixture(mcp, transport, options, hooks);
  if (options.stdoutNoise) {
    let seq = 0;
    const noise = (): boolean => process.stdout.write(`log line ${++seq}: this is not JSON-RPC\n`);
    noise();
    const deliver = transport.onmessage;
    transport.onmessage = (message) => {
      noise();
      deliver?.(message);
    };
  }
}
