import { setTimeout as sleep } from "node:timers/promises";
import { callTool, closeConnection, connectToServer } from "@mcp-rt/client";
import { noisyStderrServer } from "@mcp-rt/testing";
import { describe, expect, it } from "vitest";
import { withStderr } from "../src/error-text.js";
import { createStderrBuffer } from "../src/stdio/stderr-buffer.js";
import { checkNoProcessesLeftAfterFile } from "./process-leak-check.js";

checkNoProcessesLeftAfterFile();

describe("stderr ring buffer", () => {
  it("keeps only the most recent text within its limit", () => {
    const buffer = createStderrBuffer(100);
    for (let i = 0; i < 50; i++) buffer.append(`line ${i}\n`);
    expect(buffer.text().length).toBeLessThanOrEqual(100);
    expect(buffer.text().endsWith("line 49\n")).toBe(true);
    expect(buffer.text()).not.toContain("line 1\n");
  });

  it("tails whole lines, dropping the fragment cut off at the front", () => {
    const buffer = createStderrBuffer(20);
    buffer.append("aaaaaaaaaaaaaaa\nbbbb\ncccc\n");
    expect(buffer.tail()).toBe("bbbb\ncccc");
    expect(buffer.tail(1)).toBe("cccc");
  });

  it("bounds the tail by characters", () => {
    const buffer = createStderrBuffer();
    buffer.append("x".repeat(10_000));
    expect(buffer.tail(20, 100)).toHaveLength(100);
    expect(buffer.tail(20, 100).startsWith("…")).toBe(true);
  });

  it("is empty until something arrives", () => {
    expect(createStderrBuffer().tail()).toBe("");
  });
});

describe("stderr in error messages", () => {
  it("is appended whole when short, and cut to about 1000 characters of whole lines when long", () => {
    expect(withStderr("It failed", "  boom\n")).toBe("It failed. stderr: boom");
    expect(withStderr("It failed", "")).toBe("It failed");
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n");
    const message = withStderr("It failed", lines);
    expect(message.length).toBeLessThanOrEqual("It failed. stderr: ".length + 1000);
    expect(message).toMatch(/^It failed\. stderr: …line \d+ x+\n/);
    expect(message.endsWith(`line 99 ${"x".repeat(40)}`)).toBe(true);
    // One line longer than the limit is cut inside the line.
    expect(withStderr("It failed", "y".repeat(5000))).toBe(`It failed. stderr: …${"y".repeat(999)}`);
  });
});

describe("a server flooding stderr", () => {
  it("is drained (never stalls), kept to about 64 KiB, and streamed to onStderr", async () => {
    let received = 0;
    const connection = await connectToServer({
      name: "noisy",
      config: noisyStderrServer(),
      onStderr: (chunk) => {
        received += chunk.length;
      },
    });
    try {
      await sleep(300);
      // 128 KiB burst at start plus a line every 5 ms: a client that did not drain stderr would stall here.
      const started = Date.now();
      const result = await callTool(connection, { name: "echo", args: { message: "still responsive" } });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(JSON.stringify(result.content)).toContain("still responsive");

      expect(received).toBeGreaterThan(128 * 1024);
      const tail = connection.stderrTail();
      expect(tail.length).toBeLessThanOrEqual(64 * 1024);
      expect(tail.length).toBeGreaterThan(60 * 1024);
      expect(tail).toMatch(/noise \d+ noise/);
    } finally {
      await closeConnection(connection);
    }
  });
});
