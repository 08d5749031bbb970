import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { CallAbort } from "../src/call-abort.js";
import { ProgressCalls } from "../src/progress-calls.js";

describe("ProgressCalls", () => {
  it("hands each notification to the call that sent its token, whichever form the server echoes it in", () => {
    const calls = new ProgressCalls();
    const first: Progress[] = [];
    const second: Progress[] = [];
    const a = calls.add((progress) => first.push(progress));
    const b = calls.add((progress) => second.push(progress));
    expect(a).not.toBe(b);
    calls.deliver({ progressToken: b, progress: 1, total: 2 });
    calls.deliver({ progressToken: String(a), progress: 5, message: "half" });
    expect(first).toEqual([{ progress: 5, message: "half" }]);
    expect(second).toEqual([{ progress: 1, total: 2 }]);
  });

  it("drops a notification for a call that settled, or for a token it never gave", () => {
    const calls = new ProgressCalls();
    const seen: Progress[] = [];
    const token = calls.add((progress) => seen.push(progress));
    calls.delete(token);
    calls.deliver({ progressToken: token, progress: 1 });
    calls.deliver({ progressToken: "not-ours", progress: 1 });
    calls.deliver({ progressToken: token + 1, progress: 1 });
    expect(seen).toEqual([]);
  });
});

describe("CallAbort", () => {
  it("aborts once: its listeners run with the first reason, throwIfAborted throws it", () => {
    const abort = new CallAbort();
    const reasons: unknown[] = [];
    abort.addEventListener("abort", () => reasons.push(abort.reason));
    expect(() => abort.throwIfAborted()).not.toThrow();
    const first = new Error("first");
    abort.abort(first);
    abort.abort(new Error("second"));
    expect(abort.aborted).toBe(true);
    expect(reasons).toEqual([first]);
    expect(() => abort.throwIfAborted()).toThrow(first);
  });
});
