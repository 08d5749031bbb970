import type { MCPServerConnection } from "@mcp-rt/client";
import { describe, expect, it } from "vitest";
import { Attempt } from "../src/server/attempt.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An attempt of a server with `timeout`, which connects when `connect` is called. */
function attemptOf(timeout: number) {
  let connect!: (connection: MCPServerConnection) => void;
  const attempt = new Attempt({
    name: "s",
    config: { command: "node", timeout },
    cache: null,
    cwd: process.cwd(),
    identity: new Promise(() => {}),
  });
  attempt.follow(new Promise((resolve) => (connect = resolve)));
  return { attempt, connect };
}

describe("Attempt.wait", () => {
  it("counts the timeout from the attempt's start slot, not from the call, while it queues", async () => {
    const { attempt, connect } = attemptOf(150);
    const waited = attempt.wait();
    await sleep(400);
    attempt.began(400);
    await sleep(50);
    connect({ name: "s" } as MCPServerConnection);
    await expect(waited).resolves.toEqual({ name: "s" });
    expect(attempt.queuedMs).toBe(400);
  });

  it("times out with CONNECT_TIMEOUT once the timeout passed after the slot", async () => {
    const { attempt } = attemptOf(100);
    attempt.began(0);
    await expect(attempt.wait()).rejects.toMatchObject({ code: "CONNECT_TIMEOUT" });
  });
});
