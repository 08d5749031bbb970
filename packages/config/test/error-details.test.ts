import { describe, expect, expectTypeOf, it } from "vitest";
import { type HttpAnswerFacts, McpRtError, type McpRtErrorDetails } from "../src/index.js";

describe("McpRtError's details, typed by code", () => {
  it("narrows to the codes asked for, and says what each carries", () => {
    const error: unknown = new McpRtError("HTTP_ERROR", "It failed", {
      server: "x",
      details: { status: 502, url: "https://h/mcp" },
    });
    expect(McpRtError.isInstance(error)).toBe(true);
    expect(McpRtError.isInstance(error, "AUTH_REQUIRED", "SIGN_IN_REQUIRED")).toBe(false);
    expect(McpRtError.isInstance(new Error("plain"), "HTTP_ERROR")).toBe(false);
    if (!McpRtError.isInstance(error, "HTTP_ERROR")) throw new Error("not narrowed");
    expectTypeOf(error.code).toEqualTypeOf<"HTTP_ERROR">();
    expectTypeOf(error.details).toEqualTypeOf<McpRtErrorDetails["HTTP_ERROR"] | undefined>();
    expectTypeOf<McpRtErrorDetails["HTTP_ERROR"]>().toExtend<HttpAnswerFacts>();
    expect(error.details?.status).toBe(502);
    // A code that carries nothing takes no details.
    // @ts-expect-error NOT_CONNECTED has no facts
    new McpRtError("NOT_CONNECTED", "no", { details: { status: 1 } });
    // A sign-in needed says why, typed.
    const signIn = new McpRtError("SIGN_IN_REQUIRED", "sign in", { details: { reason: "expired" } });
    expectTypeOf(signIn.details?.reason).toEqualTypeOf<
      "not-signed-in" | "expired" | "refresh-failed" | "insufficient-scope" | undefined
    >();
  });

  it("copies with parts changed, keeping code, server, cause and what is not changed", () => {
    const cause = new Error("socket hang up");
    const error = new McpRtError("TRANSPORT_CLOSED", "gone", {
      server: "x",
      cause,
      stderrTail: "bye",
      details: { exitCode: 1, signal: null },
    });
    const longer = error.with({
      message: "gone; it exited",
      details: { ...error.details, probeStatus: 404 },
    });
    expect(longer).toMatchObject({
      code: "TRANSPORT_CLOSED",
      server: "x",
      cause,
      stderrTail: "bye",
      message: "gone; it exited",
      details: { exitCode: 1, signal: null, probeStatus: 404 },
    });
    expect(McpRtError.isInstance(longer, "TRANSPORT_CLOSED")).toBe(true);
    expect(error.with({ stderrTail: undefined }).stderrTail).toBeUndefined();
    expect(error.with({}).details).toEqual({ exitCode: 1, signal: null });
  });
});
