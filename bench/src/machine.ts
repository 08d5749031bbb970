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
}

/** Describes this machine. */
export function describeMachine(): MachineInfo {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() || "unknown CPU",
    cores: list.length,
    memoryGiB: totalmem() / 2 ** 30,
    freeMemoryGiB: freemem() / 2 ** 30,
    os: `${type()} ${release()}`,
    node: process.version,
    loadAverage: loadavg()[0] ?? 0,
  };
}
