import type { MCPToolDefinition } from "@mcp-rt/config";
import { monotonicMs } from "@mcp-rt/config/util";
import { describe, expect, it } from "vitest";
import { launchTurn } from "../../client/src/stdio/server-process.js";
import { LAUNCH_HOLD_MS } from "../src/fleet/start-pace.js";
import { passStartupGate } from "../src/fleet/startup-gate.js";
import type { Attempt } from "../src/server/attempt.js";
import { echoDefinition } from "./helpers.js";

/** An attempt still connecting when the gate passes, with what its cache read found. */
function pendingAttempt(cached: MCPToolDefinition[] | null): Attempt {
  return {
    name: "pending",
    done: new Promise(() => {}),
    cached: Promise.resolve(cached),
    late: Promise.resolve(null),
  } as unknown as Attempt;
}

/** Whether a launch asked for inside the hold window starts at once, or is held. */
async function launchInHoldWindow(cached: MCPToolDefinition[] | null): Promise<string> {
  const startupTimeoutMs = LAUNCH_HOLD_MS + 60;
  const gate = passStartupGate([pendingAttempt(cached)], {
    startupTimeoutMs,
    maxStartupWaitMs: 0,
    mode: "gate",
    defer: (offers) => new Set(offers.map(({ attempt }) => attempt)),
    notWaitedFor: () => {},
  });
  await new Promise((resolve) => setTimeout(resolve, startupTimeoutMs - LAUNCH_HOLD_MS / 2));
  // A launch that is not held starts on this event-loop iteration, before any timer can fire.
  const started = await Promise.race([
    launchTurn().then(() => "started"),
    new Promise((resolve) => setTimeout(() => resolve("held"), LAUNCH_HOLD_MS / 4)),
  ]);
  await gate;
  return String(started);
}

describe("the launch hold before the startup gate", () => {
  it("holds new launches until the gate when a pending server has cached tools to defer", async () => {
    expect(await launchInHoldWindow([echoDefinition])).toBe("held");
  });

  it("holds nothing when every cache read came back empty: those servers are waited for anyway", async () => {
    expect(await launchInHoldWindow(null)).toBe("started");
  });
});

describe("the startup gate's time", () => {
  it("counts from startedAt (the call that started the attempts), not from when the gate is entered", async () => {
    // A gate far longer than the test may take, whose time was all spent before the gate was entered.
    const startupTimeoutMs = 60_000;
    const deferred: string[] = [];
    await passStartupGate([pendingAttempt([echoDefinition])], {
      startupTimeoutMs,
      startedAt: monotonicMs() - startupTimeoutMs,
      maxStartupWaitMs: 0,
      mode: "gate",
      defer: (offers) => {
        deferred.push(...offers.map(({ attempt }) => attempt.name));
        return new Set(offers.map(({ attempt }) => attempt));
      },
      notWaitedFor: () => {},
    });
    expect(deferred).toEqual(["pending"]);
  });
});
