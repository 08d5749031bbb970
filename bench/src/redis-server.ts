import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { connect, createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/** A `redis-server` this run started. */
export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

async function accepts(port: number): Promise<boolean> {
  const socket = connect(port, "127.0.0.1");
  try {
    await once(socket, "connect");
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), 3000);
  await exited;
  clearTimeout(killer);
}

/**
 * Starts `redis-server` on a free port of 127.0.0.1 without persistence.
 * Resolves `{ missing }` with the reason when there is none or it does not come up.
 */
export async function startRedisServer(): Promise<RedisServer | { missing: string }> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const failed = once(child, "error").then(([error]) => error as Error);
  const deadline = Date.now() + 5000;
  for (;;) {
    const outcome = await Promise.race([failed, sleep(50).then(() => undefined)]);
    if (outcome) return { missing: `redis-server could not start (${outcome.message})` };
    if (child.exitCode !== null) return { missing: `redis-server exited with code ${child.exitCode}` };
    if (await accepts(port)) break;
    if (Date.now() > deadline) {
      await stop(child);
      return { missing: "redis-server did not accept connections within 5 s" };
    }
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => stop(child) };
}
