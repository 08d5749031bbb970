import { describe, expect, it } from "vitest";
import { splitCommandLine } from "../src/command-line.js";
import { parseAddArgs, parseNameArgs, parseRemoveArgs } from "../src/mcp-command-args.js";

const words = (line: string): string[] => {
  const split = splitCommandLine(line);
  if (!split.ok) throw new Error(split.error);
  return split.words;
};

describe("splitCommandLine", () => {
  it("splits like a shell, with quotes and escapes and no expansion", () => {
    expect(
      words(`add  a --header "Authorization=Bearer \\"x\\"" -- node 'my server.js' a\\ b $HOME`),
    ).toEqual([
      "add",
      "a",
      "--header",
      'Authorization=Bearer "x"',
      "--",
      "node",
      "my server.js",
      "a b",
      "$HOME",
    ]);
    expect(words(`x "" ''`)).toEqual(["x", "", ""]);
    expect(words("   ")).toEqual([]);
  });

  it("reports unterminated quotes and a trailing backslash", () => {
    expect(splitCommandLine(`add "open`)).toEqual({ ok: false, error: 'unterminated " quote' });
    expect(splitCommandLine(`add 'open`)).toEqual({ ok: false, error: "unterminated ' quote" });
    expect(splitCommandLine("add \\")).toMatchObject({ ok: false });
  });
});

describe("parseAddArgs", () => {
  it("builds a stdio config from everything after --, flags before it", () => {
    expect(parseAddArgs(words("fs --env A=1 --env B=x=y --scope project -- npx -y server --port 3"))).toEqual(
      {
        ok: true,
        value: {
          name: "fs",
          scope: "project",
          config: { command: "npx", args: ["-y", "server", "--port", "3"], env: { A: "1", B: "x=y" } },
        },
      },
    );
  });

  it("builds a remote config with transport and headers, user scope by default", () => {
    expect(
      parseAddArgs(words("docs --url https://x.test/mcp --transport sse --header Authorization=Bearer\\ t")),
    ).toEqual({
      ok: true,
      value: {
        name: "docs",
        scope: "user",
        config: { url: "https://x.test/mcp", type: "sse", headers: { Authorization: "Bearer t" } },
      },
    });
  });

  it.each([
    ["", /missing <name>/],
    ["bad/name --url https://x.test", /not a valid server name/],
    [`${"a".repeat(101)} --url https://x.test`, /not a valid server name/],
    ["a", /give --url <url> or -- <command>/],
    ["a --url https://x.test -- node", /either --url or -- <command>, not both/],
    ["a --url https://x.test --transport ws", /--transport must be "http" or "sse"/],
    ["a --url https://x.test --env A=1", /--env applies to a command/],
    ["a --transport http -- node", /--transport applies to --url/],
    ["a --header A=1 -- node", /--header applies to --url/],
    ["a --env NOEQUALS -- node", /--env expects K=V, got no "="/],
    ["a --url https://x.test --header =v", /--header expects K=V/],
    ["a --scope global -- node", /--scope must be "user" or "project"/],
    ["a --", /missing the command/],
    ["a extra -- node", /unexpected "extra"/],
    ["a --bogus -- node", /Unknown option '--bogus'/],
    ["a --url", /argument missing/],
  ])("rejects %j", (line, message) => {
    const result = parseAddArgs(words(line));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});

it("does not echo a malformed header, which is likely a credential", () => {
  const result = parseAddArgs([
    "a",
    "--url",
    "https://x.test",
    "--header",
    "Authorization: Bearer s3cret-hdr",
  ]);
  expect(result).toEqual({
    ok: false,
    error: expect.stringContaining('--header expects K=V, got "Authorization: …" (write Authorization=…)'),
  });
  expect(JSON.stringify(result)).not.toContain("s3cret-hdr");
});

describe("parseRemoveArgs and parseNameArgs", () => {
  it("accepts a name and an optional scope", () => {
    expect(parseRemoveArgs(["x.y-z_1", "--scope", "project"])).toEqual({
      ok: true,
      value: { name: "x.y-z_1", scope: "project" },
    });
    expect(parseRemoveArgs(["x"])).toEqual({ ok: true, value: { name: "x", scope: undefined } });
  });

  it("rejects missing, extra and malformed input", () => {
    expect(parseRemoveArgs([])).toMatchObject({ ok: false, error: "missing <name>" });
    expect(parseRemoveArgs(["a", "b"])).toMatchObject({ ok: false, error: 'unexpected "b"' });
    expect(parseRemoveArgs(["a", "--scope"])).toMatchObject({ ok: false });
    expect(parseRemoveArgs(["a", "--scope", "x"])).toMatchObject({ ok: false });
    expect(parseNameArgs([])).toMatchObject({ ok: false, error: "missing <name>" });
    expect(parseNameArgs(["a", "b"])).toMatchObject({ ok: false, error: 'unexpected "b"' });
    expect(parseNameArgs(["--force"])).toMatchObject({ ok: false, error: 'unknown option "--force"' });
    expect(parseNameArgs(["a b"])).toMatchObject({ ok: false });
  });
});
