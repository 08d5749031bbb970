import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, beforeEach, expect } from "vitest";

/** The built bin, as `npm start` and `mcp-rt-agent` run it. */
export const agentBin: string = fileURLToPath(new URL("../dist/main.js", import.meta.url));

/** Throws a clear message when the agent (or the fixture it runs) is not built. */
export function assertBuilt(): void {
  const fixture = fileURLToPath(new URL("../../../packages/testing/dist/fixture-server.js", import.meta.url));
  for (const file of [agentBin, fixture]) {
    if (!existsSync(file))
      throw new Error(`${file} is missing: run "pnpm build" (or npm test, which builds) first.`);
  }
}

/**
 * A private world for one agent run: its own home (config files, trust store),
 * cache folder, temp folder (the demo memory file) and project folder, and a
 * marker in the environment that every server it starts inherits, so a test
 * can find any process the run left behind.
 */
export interface Sandbox {
  root: string;
  home: string;
  cache: string;
  project: string;
  /** The bin's code cache folder when the sandbox has its own (`ownCodeCache`), else undefined. */
  codeCache: string | undefined;
  marker: string;
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

/** Options of {@link createSandbox}. */
export interface SandboxOptions {
  /**
   * Give the bin a code cache folder of its own (`MCP_RT_AGENT_CODE_CACHE_DIR`) instead of the
   * one next to it that every other test shares: a test that removes or replaces the cache then
   * disturbs no other. @default false
   */
  ownCodeCache?: boolean;
}

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "mcp-rt-agent-test-")));
  const home = join(root, "home");
  const cache = join(root, "cache");
  const project = join(root, "project");
  const tmp = join(root, "tmp");
  const codeCache = options.ownCodeCache ? join(root, "v8-cache") : undefined;
  await Promise.all([home, cache, project, tmp].map((dir) => mkdir(dir, { recursive: true })));
  const marker = randomUUID();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CACHE_HOME: cache,
    TMPDIR: tmp,
    MCP_RT_AGENT_TEST_RUN: marker,
    MCP_RT_AGENT_CODE_CACHE_DIR: codeCache,
  };
  if (!codeCache) delete env.MCP_RT_AGENT_CODE_CACHE_DIR;
  delete env.OPENAI_API_KEY;
  delete env.OPENAI_BASE_URL;
  delete env.OPENAI_MODEL;
  delete env.XDG_CONFIG_HOME;
  return {
    root,
    home,
    cache,
    project,
    codeCache,
    marker,
    env,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * A fresh {@link Sandbox} for each test of the calling `describe` (the agent
 * built first); after each test, no process of its run is left, and it is removed.
 */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(() => assertBuilt());
  beforeEach(async () => {
    sandbox = await createSandbox(options);
  });
  afterEach(async () => {
    if (!sandbox) return;
    expect(await waitForNoProcesses(sandbox.marker)).toEqual([]);
    await sandbox.cleanup();
    sandbox = undefined;
  });
  return () => {
    if (!sandbox) throw new Error("useSandbox: no test is running");
    return sandbox;
  };
}

/**
 * Live processes whose environment carries `marker` (Linux `/proc`): the
 * agent and every server it started. Empty once a run cleaned up after itself.
 */
export function processesWithMarker(marker: string): number[] {
  if (!existsSync("/proc/self/environ")) return [];
  const needle = `MCP_RT_AGENT_TEST_RUN=${marker}`;
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      if (readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(needle))
        found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Waits until no process carries `marker`; returns those still alive after `timeoutMs`. */
export async function waitForNoProcesses(marker: string, timeoutMs = 5000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let left = processesWithMarker(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = processesWithMarker(marker);
  }
  return left;
}

/** What a finished run printed. */
export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the agent to completion (`--exec` runs, or stdin given and closed). */
export function runAgent(
  args: string[],
  sandbox: Sandbox,
  options: { stdin?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<AgentRun> {
  return new Promise((resolve, reject) => {
    const nodeArgs = options.nodeArgs ?? [];
    const child = spawn(process.execPath, [...nodeArgs, agentBin, "--cwd", sandbox.project, ...args], {
      cwd: sandbox.project,
      env: { ...sandbox.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`the agent did not exit within ${options.timeoutMs ?? 25_000} ms\n${stdout}\n${stderr}`),
      );
    }, options.timeoutMs ?? 25_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? "");
  });
}

/** A running process whose output a test reads as it comes. */
export interface LiveProcess {
  child: ChildProcess;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** What it printed on stderr so far, as printed. */
  stderr(): string;
  /** Resolves once the output matches `pattern` after `from` (an offset into it). */
  waitFor(pattern: RegExp, options?: { timeoutMs?: number; from?: number }): Promise<void>;
  write(text: string): void;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

// Terminal control sequences (cursor moves, clears, colours) and carriage returns.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
const CONTROL = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Z0-9]|\r/g;

/** Wraps a spawned process for step-by-step tests; its output is kept without terminal control sequences. */
export function liveProcess(child: ChildProcess): LiveProcess {
  let raw = "";
  let text = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer | string): void => {
    raw += chunk.toString();
    text = raw.replace(CONTROL, "");
    for (const wake of waiters) wake();
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", (chunk: Buffer | string) => {
    stderr += chunk.toString();
    onData(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => text,
    stderr: () => stderr,
    write: (chunk) => void child.stdin?.write(chunk),
    waitFor(pattern, options = {}) {
      const from = options.from ?? 0;
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          if (!pattern.test(text.slice(from))) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve();
          return true;
        };
        const wake = (): void => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${text.slice(from)}`));
        }, options.timeoutMs ?? 20_000);
        waiters.add(wake);
        check();
      });
    },
  };
}

/** Ends a test's agent if it still runs (SIGKILL), and waits until it has exited. */
export async function stopAgent(agent: LiveProcess | undefined): Promise<void> {
  if (!agent || agent.child.exitCode !== null) return;
  agent.child.kill("SIGKILL");
  await agent.exited;
}

/** The `tools available after N ms` of a run's output. */
export function toolsAvailableMs(output: string): number {
  const match = /tools available after (\d+) ms/.exec(output);
  if (!match) throw new Error(`no "tools available after" line in:\n${output}`);
  return Number(match[1]);
}

/** `text` quoted for a POSIX shell. */
export const quote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

// util-linux `script` gives the agent a real pseudo-terminal (it is in every
// Debian/Ubuntu base system, so CI needs nothing extra).
export const hasScript: boolean = ((): boolean => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** The agent in a pseudo-terminal, 120 columns wide, with `args`. */
export function startInTerminal(sandbox: Sandbox, args: string[]): LiveProcess {
  const command = [
    "stty cols 120 rows 40;",
    "exec",
    quote(process.execPath),
    quote(agentBin),
    "--cwd",
    quote(sandbox.project),
    ...args.map(quote),
  ].join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    cwd: sandbox.project,
    env: { ...sandbox.env, TERM: "xterm-256color" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  return liveProcess(child);
}

/** The agent with `args`, its stdio piped (no terminal), for a test that reads its output as it comes. */
export function startAgent(sandbox: Sandbox, args: string[]): LiveProcess {
  return liveProcess(
    spawn(process.execPath, [agentBin, "--cwd", sandbox.project, ...args], {
      cwd: sandbox.project,
      env: sandbox.env,
      stdio: ["pipe", "pipe", "pipe"],
    }),
  );
}
