import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isProcessGroupAlive } from "../src/stdio/server-process.js";

/** The state letter of a process (`R`, `S`, `Z`…), or undefined once it is gone. */
function stateOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

describe.runIf(process.platform === "linux")("isProcessGroupAlive and a leader not yet reaped", () => {
  it("counts a zombie leader as gone, or, with awaitReap, as there until Node has reaped it", async () => {
    const child = spawn(process.execPath, ["-e", "0"], { detached: true, stdio: "ignore" });
    await once(child, "spawn");
    const pid = child.pid!;
    const exited = once(child, "exit");
    // A synchronous wait: Node reaps its children on the event loop, so the leader stays a zombie.
    const deadline = Date.now() + 10_000;
    while (stateOf(pid) !== "Z" && Date.now() < deadline)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    expect(stateOf(pid)).toBe("Z");
    expect(isProcessGroupAlive(pid)).toBe(false);
    expect(isProcessGroupAlive(pid, { awaitReap: true })).toBe(true);
    // Once reaped, the group is gone either way, without a look through /proc.
    await exited;
    expect(stateOf(pid)).toBeUndefined();
    expect(isProcessGroupAlive(pid, { awaitReap: true })).toBe(false);
    expect(isProcessGroupAlive(pid)).toBe(false);
  });
});
