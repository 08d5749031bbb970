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

/** What Node prints for an uncaught fetch failure offline (a server that exits at start: @sveltejs/mcp). */
const NODE_CRASH = `node:internal/deps/undici/undici:13510
      Error.captureStackTrace(err);
            ^

TypeError: fetch failed
    at node:internal/deps/undici/undici:13510:13
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)
    at async file:///home/me/.npm/_npx/1/node_modules/@sveltejs/mcp/dist/index.js:10:5 {
  [cause]: Error: getaddrinfo ENOTFOUND svelte.dev
      at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:120:26) {
    errno: -3008,
    code: 'ENOTFOUND',
    syscall: 'getaddrinfo',
    hostname: 'svelte.dev'
  }
}

Node.js v20.20.2
`;

/** A start notice of six lines (chrome-devtools-mcp's), before the line that says what went wrong. */
const NOTICE = `chrome-devtools-mcp exposes content of the browser instance to the MCP clients allowing them to inspect,
debug, and modify any data in the browser or DevTools.
Avoid sharing sensitive or personal information that you do not want to share with MCP clients.

Google collects usage statistics to improve the reliability of Chrome DevTools MCP.
You can opt out by passing the --no-usage-statistics flag.`;

describe("stderr in error messages", () => {
  it("is one line: the one that says most about why it failed", () => {
    expect(withStderr("It failed", "  boom\n")).toBe("It failed. stderr: boom");
    expect(withStderr("It failed", "")).toBe("It failed");
    expect(withStderr("It failed", NODE_CRASH)).toBe(
      "It failed. stderr: [cause]: Error: getaddrinfo ENOTFOUND svelte.dev",
    );
    expect(withStderr("It failed", `${NOTICE}\nError: Could not find Chrome (ver. 140.0.7339.0)`)).toBe(
      "It failed. stderr: Error: Could not find Chrome (ver. 140.0.7339.0)",
    );
    // Without a line that says error, one that names a failure; else the last line.
    expect(withStderr("It failed", `${NOTICE}\nlisten EADDRINUSE: address already in use :::9222\nbye`)).toBe(
      "It failed. stderr: listen EADDRINUSE: address already in use :::9222",
    );
    expect(withStderr("It failed", NOTICE)).toBe(
      "It failed. stderr: You can opt out by passing the --no-usage-statistics flag.",
    );
    expect(
      withStderr(
        "It failed",
        "Traceback (most recent call last):\n  File \"x.py\"\nModuleNotFoundError: No module named 'mcp'",
      ),
    ).toBe("It failed. stderr: ModuleNotFoundError: No module named 'mcp'");
    // A very long line is cut.
    expect(withStderr("It failed", "y".repeat(5000))).toBe(`It failed. stderr: ${"y".repeat(299)}…`);
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
