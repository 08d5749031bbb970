import { spawnSync } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CliIo, runCli } from "../src/cli/run-cli.js";
import { createFileAuthStorage } from "../src/file-auth-storage.js";
import { mcpRtPath } from "../src/mcp-rt-path.js";
import { createTrustStore } from "../src/trust-store.js";
import { readSecret, type SecretInput } from "../src/util/read-secret.js";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const KEY = "sk-live-do-not-echo-4242";
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-rt-key-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function io(secret = KEY): CliIo & { out: string; err: string } {
  const captured = {
    out: "",
    err: "",
    stdout: (text: string) => {
      captured.out += text;
    },
    stderr: (text: string) => {
      captured.err += text;
    },
    cwd: dir,
    homeDir: dir,
    load: () => Promise.reject(new Error("not used")),
    trust: createTrustStore(join(dir, "trust.json")),
    readSecret: async () => secret,
  };
  return captured;
}

describe("mcp-rt-config key (in process)", () => {
  it("without --auth stores the key in the given home's .mcp-rt/auth.json, not the real home's", async () => {
    const captured = io();
    expect(await runCli(["key", "set", "github"], captured)).toBe(0);
    expect(await createFileAuthStorage(mcpRtPath("auth.json", dir)).get("github")).toBe(KEY);
  });

  it("set stores the key without printing it; delete removes it", async () => {
    const file = join(dir, "auth.json");
    const first = io();
    expect(await runCli(["key", "set", "github", "--auth", `file:${file}`], first)).toBe(0);
    expect(first.out).toContain('Stored the API key "github" in auth.json');
    expect(first.out + first.err).not.toContain(KEY);
    expect(await createFileAuthStorage(file).get("github")).toBe(KEY);

    const second = io();
    expect(await runCli(["key", "delete", "github", "--auth", `file:${file}`], second)).toBe(0);
    expect(second.out).toContain('Deleted the API key "github"');
    expect(await createFileAuthStorage(file).get("github")).toBeUndefined();
    const third = io();
    expect(await runCli(["key", "delete", "github", "--auth", `file:${file}`], third)).toBe(0);
    expect(third.out).toContain("nothing was deleted");
  });

  it("stores nothing for an empty key, and says so on stderr", async () => {
    const file = join(dir, "auth.json");
    const empty = io("  ");
    expect(await runCli(["key", "set", "github", "--auth", `file:${file}`], empty)).toBe(1);
    expect(empty.err).toContain("nothing was stored");
    expect(await createFileAuthStorage(file).get("github")).toBeUndefined();
  });

  it.each([
    [["key"], /usage: key set/],
    [["key", "get", "x"], /usage: key set/],
    [["key", "set", "oauth:https://x"], /reserved for OAuth/],
    [["key", "set", "x", "--auth", "redis://localhost"], /not supported here/],
    [["key", "set", "x", "--cwd", "/"], /key does not take --cwd/],
  ])("%j is wrong usage (exit 2)", async (argv, message) => {
    const run = io();
    expect(await runCli(argv, run)).toBe(2);
    expect(run.err).toMatch(message);
  });

  it("memory: works and says the key is gone afterwards", async () => {
    const run = io();
    expect(await runCli(["key", "set", "x", "--auth", "memory:"], run)).toBe(0);
    expect(run.out).toContain("gone when this command exits");
  });
});

describe("mcp-rt-config key (the built bin)", () => {
  beforeAll(() => {
    const build = spawnSync("pnpm", ["--filter", "@mcp-rt/config", "build"], {
      cwd: packageDir,
      encoding: "utf8",
    });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  }, 120_000);

  it("reads a piped key into ~/.mcp-rt/auth.json and never prints it", async () => {
    const result = spawnSync(process.execPath, [join(packageDir, "dist", "cli.js"), "key", "set", "linear"], {
      input: `${KEY}\n`,
      env: { ...process.env, HOME: dir },
      encoding: "utf8",
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(KEY);
    expect(result.stdout).toContain("~/.mcp-rt/auth.json");
    const stored = JSON.parse(await readFile(join(dir, ".mcp-rt", "auth.json"), "utf8"));
    expect(stored.entries.linear).toBe(KEY);
  });
});

class FakeTerminal extends EventEmitter implements SecretInput {
  readonly isTTY = true;
  raw = false;
  setRawMode(mode: boolean): this {
    this.raw = mode;
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<string> {}
}

describe("readSecret", () => {
  it("on a terminal: prompts, turns echo off, applies backspace, and echoes nothing", async () => {
    const terminal = new FakeTerminal();
    let shown = "";
    const reading = readSecret(terminal, { write: (text: string) => (shown += text) }, "Key: ");
    expect(terminal.raw).toBe(true);
    terminal.emit("data", "sk-abX");
    terminal.emit("data", "\u007fc\r");
    expect(await reading).toBe("sk-abc");
    expect(terminal.raw).toBe(false);
    expect(shown).toBe("Key: \n");
  });

  it("on a terminal: Ctrl-C cancels", async () => {
    const terminal = new FakeTerminal();
    const reading = readSecret(terminal, { write: () => {} }, "Key: ");
    terminal.emit("data", "sk\u0003");
    await expect(reading).rejects.toThrow(/cancelled/);
    expect(terminal.raw).toBe(false);
  });
});
