import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { errorMessage } from "@mcp-rt/config/util";
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
  if (options.stdinDelayMs) {
    // Whatever the client writes meanwhile waits in the pipe.
    hooks.log(`reading stdin in ${options.stdinDelayMs} ms (--stdin-delay-ms)`);
    await sleep(options.stdinDelayMs);
  }

  if (options.garbageStdout) {
    process.stdout.write("Welcome! This program does not speak JSON-RPC.\n");
    let lines = 0;
    createInterface({ input: process.stdin }).on("line", () => {
      process.stdout.write(`garbage reply #${++lines}: <html>not json</html>\n`);
    });
    return;
  }

  const [{ StdioServerTransport, serveStdio }, fixture, { FixtureWireTap }] = await Promise.all([
    import("@modelcontextprotocol/server/stdio"),
    import("./fixture-mcp-server.js"),
    import("./fixture-wire-tap.js"),
  ]);
  const transport = new FixtureWireTap(new StdioServerTransport(), options, hooks);
  const era = options.era ?? "legacy";
  if (era === "legacy") {
    await fixture.connectFixture(fixture.createFixtureMcpServer(options, hooks), transport, options, hooks);
  } else {
    // The SDK's both-era entry: it picks the era from the opening exchange and pins one server to it.
    serveStdio(() => fixture.createFixtureMcpServer(options, hooks), {
      legacy: era === "modern" ? "reject" : "serve",
      transport,
      onerror: (error) => hooks.log(errorMessage(error)),
    });
    fixture.holdBackRequests(transport, options, hooks, ["initialize", "server/discover"]);
  }
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
