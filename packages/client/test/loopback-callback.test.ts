import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { startLoopbackCallback } from "../src/oauth/loopback-callback.js";

/** Sends raw bytes to the loopback and resolves with the status line of its answer ("" if none). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(request));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("close", () => resolve(answer.split("\r\n")[0] ?? ""));
    socket.on("error", () => resolve(answer.split("\r\n")[0] ?? ""));
  });
}

describe("the sign-in's loopback callback", () => {
  it("answers crafted requests with an error page and stays up; the real return still signs in", async () => {
    const callback = await startLoopbackCallback({ serverName: "s" });
    try {
      const { port } = new URL(callback.redirectUrl);
      const at = (query: string) => fetch(`${callback.redirectUrl}?${query}`);
      const sameLengthMultibyte = `é${"a".repeat(callback.state.length - 1)}`;
      expect(sameLengthMultibyte.length).toBe(callback.state.length);
      for (const query of [
        `state=${encodeURIComponent(sameLengthMultibyte)}&code=x`,
        `state=${"a".repeat(100_000)}&code=x`,
        `state=${encodeURIComponent("\u{1F600}".repeat(16))}&code=x`,
        "code=x",
        "state=%E0%A4%A&code=x",
      ]) {
        // 400 from the page, or Node's own 431 for a line past its header limit.
        expect([400, 431]).toContain((await at(query)).status);
      }
      expect(await raw(Number(port), "GET http://[::1 HTTP/1.1\r\nHost: x\r\n\r\n")).toMatch(
        /^HTTP\/1\.1 4\d\d/,
      );
      expect((await fetch(callback.redirectUrl, { method: "POST" })).status).toBe(404);
      // Still listening, and the sign-in under way completes.
      const code = callback.waitForCode({ timeoutMs: 5000 });
      expect((await at(`state=${callback.state}&code=the-code`)).status).toBe(200);
      expect((await code).get("code")).toBe("the-code");
    } finally {
      await callback.close();
    }
  });
});
