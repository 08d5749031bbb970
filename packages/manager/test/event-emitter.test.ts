import { describe, expect, it } from "vitest";
import { createEmitter } from "../src/event-emitter.js";

interface Events {
  ping: { n: number };
  pong: { s: string };
}

describe("createEmitter", () => {
  it("delivers to listeners in order until unsubscribed", () => {
    const errors: unknown[] = [];
    const emitter = createEmitter<Events>((e) => errors.push(e));
    const seen: string[] = [];
    const off = emitter.on("ping", ({ n }) => seen.push(`a${n}`));
    emitter.on("ping", ({ n }) => seen.push(`b${n}`));
    emitter.on("pong", ({ s }) => seen.push(s));
    emitter.emit("ping", { n: 1 });
    off();
    off();
    emitter.emit("ping", { n: 2 });
    emitter.emit("pong", { s: "p" });
    expect(seen).toEqual(["a1", "b1", "b2", "p"]);
    expect(errors).toEqual([]);
  });

  it("keeps going when a listener throws, and reports the error", () => {
    const errors: unknown[] = [];
    const emitter = createEmitter<Events>((e) => errors.push(e));
    const seen: number[] = [];
    emitter.on("ping", () => {
      throw new Error("boom");
    });
    emitter.on("ping", ({ n }) => seen.push(n));
    expect(() => emitter.emit("ping", { n: 7 })).not.toThrow();
    expect(seen).toEqual([7]);
    expect(errors).toHaveLength(1);
  });

  it("treats the same function subscribed twice as two subscriptions", () => {
    const emitter = createEmitter<Events>(() => {});
    let count = 0;
    const listener = () => count++;
    const off1 = emitter.on("ping", listener);
    emitter.on("ping", listener);
    off1();
    emitter.emit("ping", { n: 0 });
    expect(count).toBe(1);
  });
});
