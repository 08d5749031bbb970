import { readdirSync, readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isSecretEnvName } from "@mcp-rt/config";
import { ProcessReaper } from "./process-reaper.js";

// A stdio server's process: the environment and folder it starts with, when it may start, and how
// its process group ends. `/light` exports part of it, so `node:child_process` loads only when a
// server is launched or ended (`process.getBuiltinModule`), never on the start path.

/** Options of {@link createServerEnv}. */
export interface ServerEnvOptions {
  /** The environment to inherit from. @default process.env */
  parent?: Record<string, string | undefined>;
  /** The server config's `env`, applied on top without filtering. */
  env?: Record<string, string>;
  /** The server config's `envPassthrough`: names taken from `parent` even though they look secret. @default [] */
  passthrough?: readonly string[];
  /** Decides whether names compare case-insensitively (Windows). @default process.platform */
  platform?: NodeJS.Platform;
}

/**
 * Builds the environment of a stdio server: the parent's environment minus
 * variables whose names look secret (`SECRET_ENV_NAME_PATTERN` of `@mcp-rt/config`) unless
 * `passthrough` names them, minus exported shell functions (values starting
 * with `()`), then the config's `env` on top.
 *
 * @example
 * ```ts
 * createServerEnv({ parent: { PATH: "/bin", GITHUB_TOKEN: "x", AWS_PROFILE: "p" }, env: { DEBUG: "1" } });
 * // → { PATH: "/bin", AWS_PROFILE: "p", DEBUG: "1" }
 * createServerEnv({ parent: { PATH: "/bin", GITHUB_TOKEN: "x" }, passthrough: ["GITHUB_TOKEN"] });
 * // → { PATH: "/bin", GITHUB_TOKEN: "x" }
 * ```
 */
export function createServerEnv(options: ServerEnvOptions = {}): Record<string, string> {
  const parent = options.parent ?? process.env;
  const caseInsensitive = (options.platform ?? process.platform) === "win32";
  const fold = (name: string): string => (caseInsensitive ? name.toUpperCase() : name);
  const passthrough = new Set((options.passthrough ?? []).map(fold));
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || value.startsWith("()")) continue;
    if (isSecretEnvName(name) && !passthrough.has(fold(name))) continue;
    result[name] = value;
  }
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (caseInsensitive) {
      // Windows treats `Path` and `PATH` as one variable; keep only the config's spelling.
      for (const existing of Object.keys(result)) {
        if (existing.toUpperCase() === name.toUpperCase()) delete result[existing];
      }
    }
    result[name] = value;
  }
  return result;
}

/**
 * A stdio config with what its `envPassthrough` names take from `parent`
 * added to its `env` (the config's own values win), as the server's
 * environment gets them: the config messages are scrubbed with, so that a
 * passed-through secret is hidden as an `env` one is.
 */
export function withPassedThrough<
  C extends { env?: Record<string, string> | undefined; envPassthrough?: string[] | undefined },
>(config: C, parent: Record<string, string | undefined> = process.env): C {
  const names = config.envPassthrough ?? [];
  if (names.length === 0) return config;
  const passed = Object.fromEntries(
    names.flatMap((name) => (parent[name] === undefined ? [] : [[name, parent[name] as string]])),
  );
  return { ...config, env: { ...passed, ...config.env } };
}

/** The working folder of a stdio server: its config's `cwd` against the agent's, else the agent's. */
export function resolveServerCwd(configCwd: string | undefined, agentCwd: string): string {
  if (!configCwd) return agentCwd;
  return isAbsolute(configCwd) ? configCwd : resolve(agentCwd, configCwd);
}

let lastTurn: Promise<void> = Promise.resolve();
/** Holds that keep launches from starting (see {@link holdLaunches}). */
const holds = new Set<Promise<void>>();

const nextIteration = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

async function afterHolds(): Promise<void> {
  while (holds.size > 0) await Promise.all(holds);
}

/**
 * Waits for a launch's turn: launches take turns, one event-loop iteration
 * apart, because `spawn()` blocks the event loop for a whole fork + exec and
 * back-to-back launches would hold every timer (a startup gate), read and
 * answer for their sum. Spawn right after it, awaiting nothing in between.
 * With `signal`, a launch still waiting is given up: it rejects with the
 * signal's reason once aborted (the turn passes on).
 */
export function launchTurn(signal?: AbortSignal): Promise<void> {
  // Holds are checked again after the iteration: a hold set by a timer in between applies at once.
  const turn = lastTurn.then(afterHolds).then(nextIteration).then(afterHolds);
  lastTurn = turn;
  if (!signal) return turn;
  return turn.then(() => signal.throwIfAborted());
}

/**
 * Keeps new launches from starting until the returned function is called
 * (launches already spawning finish). The manager holds them just before its
 * startup gate, so that the gate's timer is not stuck behind a fork + exec.
 * Release it, always: launches wait as long as any hold is on.
 */
export function holdLaunches(): () => void {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => {
    release = resolve;
  });
  holds.add(hold);
  return () => {
    holds.delete(hold);
    release();
  };
}

/** How long to wait between liveness checks while a group shuts down. */
const POLL_MS = 20;
/** How long SIGKILL may take before we stop waiting (a process stuck in the kernel). */
const SIGKILL_WAIT_MS = 5000;

const isWindows = process.platform === "win32";

/** How the async waits below ask: the group's leader is this process's child. */
const AWAIT_REAP: GroupAliveOptions = { awaitReap: true };

/** How long servers get to exit after SIGTERM when the agent exits without closing them. */
const EXIT_KILL_GRACE_MS = 500;

/**
 * Live process groups started by this module, with the grace each gets
 * between SIGTERM and SIGKILL. If the agent exits without closing its
 * connections, they get SIGTERM on the way out (their stdin closes too), then
 * SIGKILL if they are still running after a short grace, so no server outlives
 * the agent by accident. If the agent dies without running its exit hook
 * (SIGKILL, a crash), the reaper ends them instead.
 */
const liveGroups = new Map<number, number>();
const reaper = new ProcessReaper(liveGroups, launchTurn);
let exitHookInstalled = false;

/**
 * Remembers a process group so that it is ended if the agent exits without
 * closing it (the exit hook) or dies (the reaper, which gives it `killGraceMs`
 * after SIGTERM).
 */
export function trackProcessGroup(pgid: number, killGraceMs: number): void {
  liveGroups.set(pgid, killGraceMs);
  reaper.watch(pgid, killGraceMs);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => endProcessGroupsNow([...liveGroups.keys()], EXIT_KILL_GRACE_MS));
}

/**
 * Ends groups synchronously, for the `exit` event, where nothing asynchronous
 * runs any more: SIGTERM, a blocking wait of up to `graceMs` (returning as
 * soon as they are all gone), then SIGKILL to whatever is left.
 */
function endProcessGroupsNow(groups: number[], graceMs: number): void {
  let left = groups.filter((group) => signalProcessGroup(group, "SIGTERM"));
  // taskkill /F already ended the trees, and Windows has no group to poll.
  if (isWindows) return;
  const deadline = Date.now() + graceMs;
  const tick = new Int32Array(new SharedArrayBuffer(4));
  while (left.length > 0 && Date.now() < deadline) {
    Atomics.wait(tick, 0, 0, POLL_MS);
    left = left.filter((group) => isProcessGroupAlive(group));
  }
  for (const group of left) signalProcessGroup(group, "SIGKILL");
}

/** Forgets a process group once it is gone; resolves when the reaper has heard of it. */
export async function untrackProcessGroup(pgid: number): Promise<void> {
  if (liveGroups.delete(pgid)) await reaper.forget(pgid);
}

/**
 * Sends `signal` to every process in the group led by `pgid` (on Windows it
 * ends the process tree with `taskkill /T /F`, whatever the signal). Returns
 * false when no such group exists.
 */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    if (isWindows) {
      // Console programs ignore a polite taskkill, and Windows has no SIGTERM: end the tree.
      process.kill(pgid, 0);
      const { execFile } = process.getBuiltinModule("node:child_process");
      execFile("taskkill", ["/pid", String(pgid), "/T", "/F"], { windowsHide: true }, () => {});
    } else {
      process.kill(-pgid, signal);
    }
    return true;
  } catch {
    return false;
  }
}

/** Options of {@link isProcessGroupAlive}. */
export interface GroupAliveOptions {
  /**
   * Count a zombie leader as alive: for a group whose leader is this
   * process's child, which Node reaps on its event loop, so that a group
   * waited for asynchronously is there until its leader has been reaped.
   * Without it, each poll of a group whose leader exited but is not yet
   * reaped would scan all of `/proc`, on the very event loop that reaps it.
   * @default false
   */
  awaitReap?: boolean;
}

/**
 * True while any process of the group led by `pgid` is running. Zombies do not
 * count (but see `awaitReap`): on Linux an orphaned grandchild may stay a
 * zombie until init reaps it.
 */
export function isProcessGroupAlive(pgid: number, options: GroupAliveOptions = {}): boolean {
  try {
    process.kill(isWindows ? pgid : -pgid, 0);
  } catch (error) {
    // EPERM: something exists that we may not signal; treat it as alive.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  if (process.platform !== "linux") return true;
  return hasLiveMemberOnLinux(pgid, options.awaitReap === true);
}

/** The state and process group of a running process (`/proc/<pid>/stat`), or `undefined` once it is gone. */
function procStat(pid: string): { state: string; pgrp: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Fields after the parenthesised command name: state ppid pgrp …
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0] ?? "", pgrp: Number(fields[2]) };
}

const isLive = (stat: { state: string } | undefined): boolean =>
  stat !== undefined && stat.state !== "Z" && stat.state !== "X";

function hasLiveMemberOnLinux(pgid: number, awaitReap: boolean): boolean {
  // The leader is the usual live member: one read instead of a scan of every process.
  const leader = procStat(String(pgid));
  if (leader?.pgrp === pgid && (isLive(leader) || (awaitReap && leader.state === "Z"))) return true;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (stat?.pgrp === pgid && isLive(stat)) return true;
  }
  return false;
}

/** Resolves true as soon as the group led by `pgid` (a child of this process) is gone, false after `ms`. */
async function waitForProcessGroupExit(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!isProcessGroupAlive(pgid, AWAIT_REAP)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
}

/**
 * Ends the process group led by `pgid`, a child of this process: SIGTERM to
 * every member, then SIGKILL to whatever is left after `killGraceMs`.
 * Resolves once no member runs any more (or, if a process cannot be killed at
 * all, after a bounded wait).
 */
export async function terminateProcessGroup(pgid: number, killGraceMs: number): Promise<void> {
  try {
    if (!isProcessGroupAlive(pgid, AWAIT_REAP)) return;
    signalProcessGroup(pgid, "SIGTERM");
    if (await waitForProcessGroupExit(pgid, killGraceMs)) return;
    signalProcessGroup(pgid, "SIGKILL");
    await waitForProcessGroupExit(pgid, SIGKILL_WAIT_MS);
  } finally {
    await untrackProcessGroup(pgid);
  }
}
