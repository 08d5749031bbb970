import { existsSync } from "node:fs";
import { isAbsolute } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  dualEraServer,
  type FixtureOptions,
  fixtureArgs,
  fixtureServer,
  fixtureServerPath,
  grandchildServer,
  legacyServer,
  manyToolsServer,
  modernServer,
  parseFixtureCommandLine,
  slowInitServer,
} from "../src/index.js";
import { runToExit } from "./helpers.js";

const optionsArbitrary: fc.Arbitrary<FixtureOptions> = fc.record(
  {
    name: fc.string({ minLength: 1 }),
    toolPrefix: fc.string(),
    initDelayMs: fc.nat(),
    hangAtInit: fc.boolean(),
    crashAfterInit: fc.boolean(),
    crashOnCall: fc.boolean(),
    exitCode: fc.integer({ min: 0, max: 255 }),
    exitDelayMs: fc.nat(),
    exitWhileFile: fc.string({ minLength: 1 }),
    stderrBanner: fc.string({ minLength: 1 }),
    noSessionStatus: fc.integer({ min: 400, max: 499 }),
    garbageStdout: fc.boolean(),
    stdoutNoise: fc.boolean(),
    tools: fc.nat({ max: 100_000 }),
    pageSize: fc.integer({ min: 1, max: 1000 }),
    cursorLoop: fc.boolean(),
    listChanging: fc.boolean(),
    slowTool: fc.boolean(),
    hugeTool: fc.boolean(),
    noisyStderr: fc.boolean(),
    ignoreSigterm: fc.boolean(),
    spawnGrandchild: fc.boolean(),
    pidFile: fc.string({ minLength: 1 }),
    bearerToken: fc.string({ minLength: 1 }),
    descriptionChars: fc.nat({ max: 10_000_000 }),
    schemaDepth: fc.nat({ max: 1_000_000 }),
    longToolName: fc.nat({ max: 10_000_000 }),
    escapes: fc.boolean(),
    listChangedStorm: fc.boolean(),
    era: fc.constantFrom("legacy", "dual", "modern"),
    probeAnswer: fc.constantFrom("method-not-found", "invalid-params", "never", "exit"),
    probeStatus: fc.integer({ min: 100, max: 599 }),
    stdinDelayMs: fc.nat(),
    startCpuMs: fc.nat(),
    quiet: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** Drops `false` flags and `undefined`, which both mean "off". */
const normalize = (options: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined && v !== false));

describe("fixture options", () => {
  it("round-trips every option through the command line", () => {
    fc.assert(
      fc.property(optionsArbitrary, (options) => {
        const parsed = parseFixtureCommandLine(fixtureArgs(options));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const { transport, port, ...rest } = parsed.value;
        expect(transport).toBe("stdio");
        expect(port).toBe(0);
        expect(normalize(rest)).toEqual(normalize(options));
      }),
    );
  });

  it("reads the transport flags", () => {
    const http = parseFixtureCommandLine(["--http", "--port", "4100"]);
    expect(http).toMatchObject({ ok: true, value: { transport: "http", port: 4100 } });
    expect(parseFixtureCommandLine(["--sse"])).toMatchObject({ ok: true, value: { transport: "sse" } });
  });

  it.each([
    [["--tools", "many"], "--tools"],
    [["--page-size", "0"], "--page-size"],
    [["--exit-code", "300"], "--exit-code"],
    [["--http", "--sse"], "exclusive"],
    [["--era=2026"], "--era"],
    [["--probe-answer=hang"], "--probe-answer"],
    [["--probe-status=99"], "--probe-status"],
    [["--bogus"], "bogus"],
    [["positional"], "positional"],
  ])("rejects %j with a message naming the problem", (argv, fragment) => {
    const parsed = parseFixtureCommandLine(argv);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(fragment);
  });

  it("exits with code 2 and says why when the program gets a bad flag", async () => {
    const result = await runToExit({
      command: process.execPath,
      args: [fixtureServerPath, "--tools", "lots"],
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^mcp-rt fixture: --tools: /);
    expect(result.stdout).toBe("");
  });
});

describe("config helpers", () => {
  it("return a stdio config that runs the built program with this Node", () => {
    const config = fixtureServer();
    expect(config.command).toBe(process.execPath);
    expect(config.args?.[0]).toBe(fixtureServerPath);
    expect(isAbsolute(fixtureServerPath)).toBe(true);
    expect(existsSync(fixtureServerPath)).toBe(true);
  });

  it("translate their parameters into flags", () => {
    expect(slowInitServer(250).args?.slice(1)).toEqual(["--init-delay-ms=250"]);
    expect(manyToolsServer(30, { pageSize: 7 }).args?.slice(1)).toEqual(["--tools=30", "--page-size=7"]);
    expect(manyToolsServer(30).args?.slice(1)).toEqual(["--tools=30"]);
    expect(modernServer({ tools: 2 }).args?.slice(1)).toEqual(["--tools=2", "--era=modern"]);
    expect(dualEraServer({ stdinDelayMs: 3000 }).args?.slice(1)).toEqual([
      "--era=dual",
      "--stdin-delay-ms=3000",
    ]);
    expect(legacyServer("exit", { era: "modern" }).args?.slice(1)).toEqual([
      "--era=legacy",
      "--probe-answer=exit",
    ]);
    expect(grandchildServer("/tmp/p", { name: "g" }).args?.slice(1)).toEqual([
      "--name=g",
      "--spawn-grandchild",
      "--pid-file=/tmp/p",
    ]);
  });
});
