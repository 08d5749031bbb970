import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A throwaway `redis-server` on 127.0.0.1, with no persistence. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops it for good and removes its folder. Idempotent. */
  stop(): Promise<void>;
  /** SIGKILLs it, as a crash would; `start()` brings it back on the same port. */
  kill(): Promise<void>;
  /** Starts it again (after `kill`) on the same port. */
  start(): Promise<void>;
}

/** True when `redis-server` is on the PATH. */
export function hasRedisServer(): boolean {
  return spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
}

/**
 * Why the Redis tests cannot run, or `undefined` when they can. In CI (`CI=true`)
 * a missing `redis-server` is an error, not a skip.
 */
export function redisUnavailable(): string | undefined {
  if (hasRedisServer()) return undefined;
  return "redis-server is not installed (apt-get install redis-server); .ci/run installs it, and with CI=true these tests fail instead of skipping";
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

async function launch(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`redis-server did not start on ${port}:\n${output}`)),
      10_000,
    );
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        ready();
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`redis-server exited with ${code} before it was ready:\n${output}`));
    });
  });
  // Keep draining so a chatty server never blocks on a full pipe.
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

async function end(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill(signal);
  await exited;
}

/** Starts a `redis-server` on a free port in a temp folder. */
export async function startRedisServer(): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-rt-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port, dir);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child) await end(child, "SIGTERM");
      child = undefined;
      await rm(dir, { recursive: true, force: true });
    },
    async kill() {
      if (child) await end(child, "SIGKILL");
      child = undefined;
    },
    async start() {
      child ??= await launch(port, dir);
    },
  };
}
