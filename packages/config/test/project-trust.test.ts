import { describe, expect, it } from "vitest";
import { canonicalJson, hashProjectServers } from "../src/project-trust.js";

describe("hashProjectServers", () => {
  const entry = (
    name: string,
    config: unknown,
    level: "user" | "project" = "project",
    provider = "claude-code",
  ) => ({
    name,
    config,
    source: { provider, level },
  });

  it("ignores key order, entry order, undefined fields and user-level entries", () => {
    const a = hashProjectServers([
      entry("x", { command: "a", args: ["1"], env: { B: "2", A: "1" } }),
      entry("y", { url: "https://h/" }, "project", "cursor"),
    ]);
    const b = hashProjectServers([
      entry("mine", { command: "anything" }, "user"),
      entry("y", { url: "https://h/" }, "project", "cursor"),
      entry("x", { env: { A: "1", B: "2" }, args: ["1"], command: "a", cwd: undefined }),
    ]);
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it("changes when any project entry changes", () => {
    const base = hashProjectServers([entry("x", { command: "a", args: ["1"] })]);
    expect(hashProjectServers([entry("x", { command: "a", args: ["2"] })])).not.toBe(base);
    expect(hashProjectServers([entry("z", { command: "a", args: ["1"] })])).not.toBe(base);
    expect(hashProjectServers([entry("x", { command: "a", args: ["1"] }, "project", "cursor")])).not.toBe(
      base,
    );
    expect(
      hashProjectServers([entry("x", { command: "a", args: ["1"] }), entry("n", { command: "b" })]),
    ).not.toBe(base);
    expect(hashProjectServers([{ ...entry("x", { command: "a", args: ["1"] }), envFile: ".env" }])).not.toBe(
      base,
    );
  });

  it("serializes canonically", () => {
    expect(canonicalJson({ b: [2, { d: 1, c: 0 }], a: null, u: undefined })).toBe(
      '{"a":null,"b":[2,{"c":0,"d":1}]}',
    );
  });
});
