import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { orphansGone, processIds } from "../src/run-in-worker.js";

describe.runIf(process.platform === "linux")("between runs", () => {
  it("waits until the processes a run left behind are gone", async () => {
    const before = processIds();
    // Detached and unreferenced: nobody waits for it, as for a server's orphaned child.
    const orphan = spawn("sleep", ["0.4"], { detached: true, stdio: "ignore" });
    orphan.unref();
    const started = performance.now();
    await orphansGone(before);
    expect(performance.now() - started).toBeGreaterThan(300);
    expect(processIds()?.has(orphan.pid ?? -1)).toBe(false);
    // Other tests' processes come and go too: the wait may run to its 5 s bound.
  }, 15_000);
});
