import { readFileSync } from "node:fs";
import { cpus, freemem, loadavg, release, totalmem, type } from "node:os";

/** The machine a run happened on. */
export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  /** The 1-minute load average when the run started: how busy the machine already was. */
  loadAverage: number;
  freeMemoryGiB: number;
  /**
   * Linux's `kernel.sched_autogroup_enabled`: with it on, every session gets
   * its own share of the CPU, and mcp-rt starts each stdio server in a session
   * of its own while the SDK does not, which tilts results on a busy machine.
   */
  autogroup?: boolean;
}

function readAutogroup(): boolean | undefined {
  try {
    return readFileSync("/proc/sys/kernel/sched_autogroup_enabled", "utf8").trim() === "1";
  } catch {
    return undefined;
  }
}

/** Describes this machine. */
export function describeMachine(): MachineInfo {
  const list = cpus();
  const autogroup = readAutogroup();
  return {
    cpu: list[0]?.model.trim() || "unknown CPU",
    cores: list.length,
    memoryGiB: totalmem() / 2 ** 30,
    freeMemoryGiB: freemem() / 2 ** 30,
    os: `${type()} ${release()}`,
    node: process.version,
    loadAverage: loadavg()[0] ?? 0,
    ...(autogroup === undefined ? {} : { autogroup }),
  };
}
