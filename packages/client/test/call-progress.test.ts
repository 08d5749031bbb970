import type { Progress } from "@modelcontextprotocol/client";
import { describe, expect, it, vi } from "vitest";
import { ProgressCalls, type WatchedCall } from "../src/call-progress.js";

/** A watched call that records what reaches it. */
function watched(quietMs = 60_000): WatchedCall & { seen: Progress[]; quiet: number } {
  return {
    quietMs,
    token: 0,
    deadline: 0,
    seen: [],
    quiet: 0,
    progressed(progress) {
      this.seen.push(progress);
    },
    tooQuiet() {
      this.quiet++;
    },
  };
}

describe("ProgressCalls", () => {
  it("hands each notification to the call that sent its token, whichever form the server echoes it in", () => {
    const calls = new ProgressCalls();
    const first = watched();
    const second = watched();
    const a = calls.add(first);
    const b = calls.add(second);
    expect(a).not.toBe(b);
    calls.deliver({ progressToken: b, progress: 1, total: 2 });
    calls.deliver({ progressToken: String(a), progress: 5, message: "half" });
    expect(first.seen).toEqual([{ progress: 5, message: "half" }]);
    expect(second.seen).toEqual([{ progress: 1, total: 2 }]);
  });

  it("drops a notification for a call that settled, or for a token it never gave", () => {
    const calls = new ProgressCalls();
    const call = watched();
    const token = calls.add(call);
    calls.delete(token);
    calls.deliver({ progressToken: token, progress: 1 });
    calls.deliver({ progressToken: "not-ours", progress: 1 });
    calls.deliver({ progressToken: token + 1, progress: 1 });
    expect(call.seen).toEqual([]);
  });

  it("keeps finding the calls still in flight when one in the middle settles", () => {
    const calls = new ProgressCalls();
    const [first, middle, last] = [watched(), watched(), watched()];
    const tokens = [first, middle, last].map((call) => calls.add(call));
    calls.delete(tokens[1] as number);
    calls.delete(tokens[1] as number);
    for (const [i, token] of tokens.entries()) calls.deliver({ progressToken: token, progress: i });
    expect([first.seen, middle.seen, last.seen]).toEqual([[{ progress: 0 }], [], [{ progress: 2 }]]);
    calls.delete(tokens[0] as number);
    calls.deliver({ progressToken: tokens[2] as number, progress: 3 });
    expect(last.seen).toEqual([{ progress: 2 }, { progress: 3 }]);
  });

  it("tells each call its limit passed on one shared timer; progress restarts the limit", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      const calls = new ProgressCalls();
      const short = watched(100);
      const long = watched(300);
      const finished = watched(50);
      calls.delete(calls.add(finished));
      const shortToken = calls.add(short);
      calls.add(long);
      expect(vi.getTimerCount()).toBe(1);

      await vi.advanceTimersByTimeAsync(80);
      calls.deliver({ progressToken: shortToken, progress: 1 });
      await vi.advanceTimersByTimeAsync(80);
      expect(short.quiet).toBe(0);
      await vi.advanceTimersByTimeAsync(30);
      expect([short.quiet, long.quiet]).toEqual([1, 0]);
      calls.delete(shortToken);

      await vi.advanceTimersByTimeAsync(120);
      expect([short.quiet, long.quiet, finished.quiet]).toEqual([1, 1, 0]);
    } finally {
      vi.useRealTimers();
    }
  });
});
