import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

interface ProcessRow {
  pid: number;
  ppid: number;
  state: string;
}

function readProcTable(): ProcessRow[] {
  const rows: ProcessRow[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const row = readProcStat(Number(entry));
    if (row) rows.push(row);
  }
  return rows;
}

function readProcStat(pid: number): ProcessRow | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // exited while we were reading
  }
  // The command name (field 2) may hold spaces and parentheses; fields after
  // the last ")" are fixed: state, ppid, …
  const [state = "", ppid = ""] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { pid, ppid: Number(ppid), state };
}

function readPsTable(): ProcessRow[] {
  const out = execFileSync("ps", ["-A", "-o", "pid=,ppid=,stat="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 3)
    .map(([pid, ppid, state]) => ({ pid: Number(pid), ppid: Number(ppid), state: state ?? "" }));
}

const hasProc = (): boolean => process.platform === "linux";

/**
 * The live descendants of `pid` (children, grandchildren, …), read from
 * `/proc` on Linux and from `ps` elsewhere; zombies are not counted. Used by
 * tests to check that nothing they started outlives them:
 *
 * @example
 * afterAll(() => expect(childProcessesOf(process.pid)).toEqual([]));
 *
 * A grandchild whose parent already exited is re-parented (to init or a
 * subreaper) and is no longer a descendant: check such processes by pid,
 * e.g. with {@link readPidFile} and {@link isProcessAlive}.
 */
export function childProcessesOf(pid: number): number[] {
  const rows = hasProc() ? readProcTable() : readPsTable();
  const children = new Map<number, number[]>();
  for (const row of rows) {
    if (row.state.startsWith("Z")) continue;
    const list = children.get(row.ppid) ?? [];
    list.push(row.pid);
    children.set(row.ppid, list);
  }
  const found: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    found.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return found.sort((a, b) => a - b);
}

/** The argument an mcp-rt reaper runs under (`/bin/sh -c <script> mcp-rt-reaper`). */
const REAPER_NAME = "mcp-rt-reaper";

function commandLineOf(pid: number): string[] {
  try {
    if (hasProc()) return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    return execFileSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8" })
      .trim()
      .split(/\s+/);
  } catch {
    return []; // exited meanwhile
  }
}

/**
 * {@link childProcessesOf} without the reaper: the one small watchdog an
 * mcp-rt host runs beside its stdio servers while any is open (see
 * `@mcp-rt/client`). What a test that counts the servers it started wants.
 *
 * @example
 * await manager.connectServers({ a: echoServer(), b: echoServer() });
 * expect(serverProcessesOf(process.pid)).toHaveLength(2);
 */
export function serverProcessesOf(pid: number): number[] {
  return childProcessesOf(pid).filter((child) => commandLineOf(child).at(-1) !== REAPER_NAME);
}

/** True while `pid` names a running (not zombie) process. */
export function isProcessAlive(pid: number): boolean {
  // 0 and negative numbers address process groups, not one process.
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  if (hasProc()) return !(readProcStat(pid)?.state.startsWith("Z") ?? true);
  return true;
}

/**
 * Resolves `true` once `pid` is gone, or `false` if it is still alive after
 * `timeoutMs`. Polls every 20 ms.
 */
export async function waitForProcessExit(pid: number, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(20);
  }
  return true;
}
