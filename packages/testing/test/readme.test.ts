import { describe, expect, it } from "vitest";
import { useQuickStart } from "../../../test-support/readme-quick-start.js";

// The quick start is a vitest file that connects with @mcp-rt/client, as a
// user's tests would; it runs from the built packages (`pnpm build` first).
const quickStart = useQuickStart({ readme: new URL("../README.md", import.meta.url), runner: "vitest" });

describe("the README quick start", () => {
  it("passes as a vitest file: a slow server times out, HTTP connects, no child is left", {
    timeout: 120_000,
  }, async () => {
    const { lines, run } = quickStart();
    expect(lines).toBeLessThanOrEqual(15);
    const { exitCode, stderr, tests, leftBehind } = await run();
    expect(tests).toEqual([
      { name: "times out a slow server", status: "passed" },
      { name: "talks Streamable HTTP", status: "passed" },
    ]);
    // A failed afterAll (a child process left running) fails the run without failing a test.
    expect(stderr).toBe("");
    expect(exitCode).toBe(0);
    expect(leftBehind).toBe(false);
  });
});
