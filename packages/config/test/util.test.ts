import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { describe, expect, it } from "vitest";
import {
  abortError,
  displayPath,
  errorMessage,
  errorStack,
  firstSettled,
  lazy,
  measureJson,
  monotonicMs,
  plural,
  writeJsonAtomic,
} from "../src/util.js";
import { useTempDir } from "./helpers.js";

describe("errorMessage", () => {
  it("gives an error's message, else its name, and any other value as text", () => {
    expect(errorMessage(new TypeError("bad input"))).toBe("bad input");
    expect(errorMessage(new RangeError())).toBe("RangeError");
    expect(errorMessage("plain text")).toBe("plain text");
    expect(errorMessage(42)).toBe("42");
    expect(errorMessage(undefined)).toBe("undefined");
  });
});

describe("errorStack", () => {
  it("gives an error's stack, which names the error and where it was thrown", () => {
    const stack = errorStack(new TypeError("bad input"));
    expect(stack).toMatch(/^TypeError: bad input\n\s+at /);
  });

  it("falls back to the message when there is no stack, and any other value as text", () => {
    const bare = new Error("no trace");
    delete bare.stack;
    expect(errorStack(bare)).toBe("no trace");
    expect(errorStack("plain text")).toBe("plain text");
  });
});

describe("lazy", () => {
  it("builds the value on the first call only, and not before", () => {
    let builds = 0;
    const value = lazy(() => ({ n: ++builds }));
    expect(builds).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(builds).toBe(1);
  });

  it("keeps an undefined value too, and builds again after a throw", () => {
    let builds = 0;
    const none = lazy(() => {
      builds++;
      return undefined;
    });
    none();
    none();
    expect(builds).toBe(1);
    let fail = true;
    const flaky = lazy(() => {
      if (fail) throw new Error("not yet");
      return 1;
    });
    expect(() => flaky()).toThrow("not yet");
    fail = false;
    expect(flaky()).toBe(1);
  });
});

describe("abortError", () => {
  it("says what was aborted and keeps the reason as cause", () => {
    const reason = new Error("user pressed Ctrl-C");
    const error = abortError('The tool call to MCP server "docs"', reason);
    expect(error).toBeInstanceOf(DOMException);
    expect(error.name).toBe("AbortError");
    expect(error.message).toBe('The tool call to MCP server "docs" was aborted');
    expect(error.cause).toBe(reason);
    expect(abortError("startup").cause).toBeUndefined();
  });

  it("says what was aborted even after a plain abort(), whose own reason stays the cause", () => {
    const controller = new AbortController();
    controller.abort();
    const error = abortError('Waiting for MCP server "docs" to connect', controller.signal.reason);
    expect(error.message).toBe('Waiting for MCP server "docs" to connect was aborted');
    expect(error.cause).toBe(controller.signal.reason);
  });

  it("wraps a timeout's reason, so a timed-out signal still rejects with an AbortError", () => {
    const timeout = new DOMException("The operation timed out", "TimeoutError");
    const error = abortError("startup", timeout);
    expect(error.name).toBe("AbortError");
    expect(error.cause).toBe(timeout);
  });
});

describe("firstSettled", () => {
  it("returns when the first promise settles, rejected or not", async () => {
    const began = performance.now();
    await firstSettled([new Promise(() => {}), Promise.reject(new Error("gone"))], 5_000);
    expect(performance.now() - began).toBeLessThan(1_000);
  });

  it("returns after `ms` when nothing settles, and never rejects", async () => {
    const began = performance.now();
    await firstSettled([new Promise(() => {})], 20);
    expect(performance.now() - began).toBeGreaterThanOrEqual(15);
    await firstSettled([], 1);
  });
});

describe("measureJson", () => {
  it("measures depth and about the JSON length, without recursion", () => {
    const value = { a: [1, "xy", null, true], b: { c: {} } };
    expect(measureJson(value)).toEqual({ depth: 3, size: JSON.stringify(value).length });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    expect(measureJson(deep).depth).toBe(100_001);
  });

  it("stops at the first limit passed", () => {
    expect(measureJson({ a: { b: { c: 1 } } }, { maxDepth: 2 })).toMatchObject({ exceeded: "depth" });
    expect(measureJson({ text: "x".repeat(1000) }, { maxSize: 100 })).toMatchObject({ exceeded: "size" });
    expect(measureJson("short", { maxSize: 100, maxDepth: 1 })).toEqual({ depth: 0, size: 7 });
  });
});

describe("plural", () => {
  it("words a count with the noun in the right number", () => {
    expect(plural(0, "server")).toBe("0 servers");
    expect(plural(1, "server")).toBe("1 server");
    expect(plural(2, "entry", "entries")).toBe("2 entries");
    expect(plural(1, "entry", "entries")).toBe("1 entry");
  });
});

describe("displayPath", () => {
  const home = join(tmpdir(), "home");
  const project = join(home, "work", "app");
  const where = { cwd: project, homeDir: home };

  it("shows a path in the project relative to it, and the project itself as `.`", () => {
    expect(displayPath(join(project, ".cursor", "mcp.json"), where)).toBe(join(".cursor", "mcp.json"));
    expect(displayPath(join(project, "..env"), where)).toBe("..env");
    expect(displayPath(project, where)).toBe(".");
  });

  it("shows a path elsewhere in the home folder as `~/…`, and any other path as it is", () => {
    expect(displayPath(join(home, ".claude.json"), where)).toBe(`~${sep}.claude.json`);
    expect(displayPath(join(home, "work", "other", "mcp.json"), where)).toBe(
      `~${sep}${join("work", "other", "mcp.json")}`,
    );
    const outside = join(tmpdir(), "elsewhere", "mcp.json");
    expect(displayPath(outside, where)).toBe(outside);
    expect(displayPath(home, where)).toBe(home);
  });
});

describe("writeJsonAtomic", () => {
  const tempDir = useTempDir("mcp-rt-util-");

  it("writes pretty JSON 0600 in a new 0700 folder and leaves no temp file", async () => {
    const file = join(tempDir(), "nested", "state.json");
    await writeJsonAtomic(file, { a: 1, list: ["x"] });
    expect(await readFile(file, "utf8")).toBe('{\n  "a": 1,\n  "list": [\n    "x"\n  ]\n}\n');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(tempDir(), "nested"))).mode & 0o777).toBe(0o700);
    expect(await readdir(join(tempDir(), "nested"))).toEqual(["state.json"]);
  });

  it("replaces a file without keeping its mode, and honours the mode it is given", async () => {
    const file = join(tempDir(), "state.json");
    await writeFile(file, "old", { mode: 0o644 });
    await writeJsonAtomic(file, { b: 2 });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ b: 2 });

    await writeJsonAtomic(file, [], { mode: 0o640 });
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });

  it("throws and leaves no temp file when the value cannot be written", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(writeJsonAtomic(join(tempDir(), "bad.json"), cyclic)).rejects.toThrow(TypeError);
    expect(await readdir(tempDir())).toEqual([]);
  });
});

describe("monotonicMs", () => {
  it("runs with performance.now(): the same clock, another origin", async () => {
    const [start, perfStart] = [monotonicMs(), performance.now()];
    await new Promise((resolve) => setTimeout(resolve, 30));
    const [span, perfSpan] = [monotonicMs() - start, performance.now() - perfStart];
    expect(span).toBeGreaterThanOrEqual(25);
    expect(Math.abs(span - perfSpan)).toBeLessThan(5);
  });
});
