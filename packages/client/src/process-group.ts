import { type ChildProcess, execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import spawn from "cross-spawn";
import { ProcessReaper } from "./process-reaper.js";

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
const reaper = new ProcessReaper(liveGroups);
let exitHookInstalled = false;

/** What {@link spawnGroupLeader} runs. */
export interface GroupLeaderOptions {
  command: string;
  args?: string[] | undefined;
  env: Record<string, string>;
  cwd: string;
}

/**
 * Spawns `command` with piped stdio as the leader of a process group of its
 * own (POSIX; on Windows `detached` would open a console window). Once it
 * runs, neither the process nor its pipes keep the agent's event loop alive:
 * pending requests do (their timers), idle connections do not.
 */
export function spawnGroupLeader({ command, args = [], env, cwd }: GroupLeaderOptions): ChildProcess {
  const child = spawn(command, args, {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
    detached: process.platform !== "win32",
    windowsHide: true,
    shell: false,
  });
  child.once("spawn", () => {
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) {
      (stream as unknown as { unref?: () => void } | null)?.unref?.();
    }
  });
  return child;
}

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
   * Without it, every poll of a group whose leader had exited but was not yet
   * reaped scanned all of `/proc`: closing 100 servers at once spent ~600 ms
   * of CPU on those scans, on the very event loop that reaps them.
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
