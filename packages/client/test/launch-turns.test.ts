import { connectToServer, holdLaunches, type MCPServerConnection } from "@mcp-rt/client";
import { childProcessesOf, echoServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { useConnections } from "./helpers.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

const { connect } = useConnections();

describe("stdio launches", () => {
  it("take turns with the event loop: a timer set before starting 6 servers fires before the last one is spawned", async () => {
    const count = 6;
    const before = childProcessesOf(process.pid).length;
    let spawnedWhenTimerFired: number | undefined;
    const timer = setTimeout(() => {
      spawnedWhenTimerFired = childProcessesOf(process.pid).length - before;
    }, 0);
    const connections = await Promise.all(
      Array.from({ length: count }, (_, i) => connect({ name: `echo${i}`, config: echoServer() })),
    );
    clearTimeout(timer);
    expect(connections.every((connection) => typeof connection.pid === "number")).toBe(true);
    // Back-to-back spawns would block the timer until all of them had started.
    expect(spawnedWhenTimerFired).toBeDefined();
    expect(spawnedWhenTimerFired).toBeLessThan(count);
  });

  it("wait while launches are held, and start once the hold is released", async () => {
    const before = childProcessesOf(process.pid).length;
    const release = holdLaunches();
    let connecting: Promise<MCPServerConnection> | undefined;
    try {
      connecting = connect({ name: "held", config: echoServer() });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(childProcessesOf(process.pid).length).toBe(before);
    } finally {
      release();
    }
    const connection = await connecting!;
    expect(typeof connection.pid).toBe("number");
  });

  it("an abort while waiting for its turn spawns nothing and rejects with ABORTED", async () => {
    const before = childProcessesOf(process.pid).length;
    const controller = new AbortController();
    const connecting = connectToServer({ name: "echo", config: echoServer(), signal: controller.signal });
    controller.abort();
    await expect(connecting).rejects.toMatchObject({ code: "ABORTED" });
    expect(childProcessesOf(process.pid).length).toBe(before);
  });
});
