import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll } from "vitest";

/** Name of the variable that marks every process a test file started (children inherit it). */
export const LEAK_MARKER_VAR = "MCP_RT_TEST_RUN";

interface ProcessInfo {
  pid: number;
  ppid: number;
  state: string;
  cmdline: string;
}

function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state = "", ppid = ""] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    let cmdline = "";
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    } catch {}
    return { pid, ppid: Number(ppid), state, cmdline };
  } catch {
    return undefined;
  }
}

function hasMarker(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`${LEAK_MARKER_VAR}=${marker}`);
  } catch {
    return false;
  }
}

/**
 * Live (non-zombie) processes this test process started: its descendants, plus
 * any process carrying this file's marker in its environment — which catches
 * grandchildren that were re-parented to init when their parent died.
 */
export function leftoverProcesses(marker: string | undefined): ProcessInfo[] {
  const all: ProcessInfo[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const info = readProcess(Number(entry));
    if (info && !info.state.startsWith("Z")) all.push(info);
  }
  const byParent = new Map<number, ProcessInfo[]>();
  for (const info of all) byParent.set(info.ppid, [...(byParent.get(info.ppid) ?? []), info]);
  const found = new Map<number, ProcessInfo>();
  const queue = [...(byParent.get(process.pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    found.set(next.pid, next);
    queue.push(...(byParent.get(next.pid) ?? []));
  }
  if (marker) {
    for (const info of all) {
      if (info.pid !== process.pid && !found.has(info.pid) && hasMarker(info.pid, marker))
        found.set(info.pid, info);
    }
  }
  return [...found.values()];
}

/**
 * Makes the current test file fail if any process it started is still running
 * after its last test (waiting up to `graceMs` for processes on their way out).
 * Leftovers are killed so they do not leak into later files.
 */
export function checkNoProcessesLeftAfterFile(graceMs = 3000): void {
  if (process.platform !== "linux") return;
  const marker = randomUUID();
  beforeAll(() => {
    process.env[LEAK_MARKER_VAR] = marker;
  });
  afterAll(async () => {
    const deadline = Date.now() + graceMs;
    let left = leftoverProcesses(marker);
    while (left.length > 0 && Date.now() < deadline) {
      await sleep(50);
      left = leftoverProcesses(marker);
    }
    delete process.env[LEAK_MARKER_VAR];
    if (left.length === 0) return;
    for (const info of left) {
      try {
        process.kill(info.pid, "SIGKILL");
      } catch {}
    }
    throw new Error(
      `This test file left ${left.length} process(es) running:\n${left.map((p) => `  ${p.pid} ${p.cmdline}`).join("\n")}`,
    );
  });
}
