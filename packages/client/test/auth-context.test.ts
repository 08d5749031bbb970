import { describe, expect, it } from "vitest";
import { authContextOf } from "../src/auth-context.js";

const url = "https://mcp.example.com/mcp";

describe("authContextOf", () => {
  it("is undefined for a connection that sends no credentials", () => {
    expect(authContextOf({ url }, undefined)).toBeUndefined();
    expect(authContextOf({ url, headers: {} }, undefined)).toBeUndefined();
    expect(authContextOf({ command: "node", env: {} }, undefined)).toBeUndefined();
  });

  it("tells credentials apart, whatever the order or the header names' case, and never holds them", () => {
    const ann = authContextOf({ url, headers: { Authorization: "Bearer ann", "X-Team": "core" } }, undefined);
    expect(ann).toMatch(/^[0-9a-f]{64}$/);
    expect(
      authContextOf({ url, headers: { "x-team": "core", authorization: "Bearer ann" } }, undefined),
    ).toBe(ann);
    expect(
      authContextOf({ url, headers: { Authorization: "Bearer bob", "X-Team": "core" } }, undefined),
    ).not.toBe(ann);
    expect(authContextOf({ command: "node", env: { API_KEY: "ann" } }, undefined)).not.toBe(
      authContextOf({ command: "node", env: { API_KEY: "bob" } }, undefined),
    );
  });

  it("follows the OAuth principal: the same one is the same context, another is another", () => {
    const alice = authContextOf({ url }, '["https://as.example","https://mcp.example.com","sub:alice"]');
    expect(alice).toBeDefined();
    expect(authContextOf({ url }, '["https://as.example","https://mcp.example.com","sub:alice"]')).toBe(
      alice,
    );
    expect(authContextOf({ url }, '["https://as.example","https://mcp.example.com","sub:bob"]')).not.toBe(
      alice,
    );
  });
});
