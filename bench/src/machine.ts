import { spawnSync } from "node:child_process";
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
  /** Variables of this environment that change how every Node process starts, and what they cost it. */
  nodeStartEnv?: NodeStartEnv;
}

/**
 * `NODE_EXTRA_CA_CERTS` and `NODE_OPTIONS` set in the environment the run
 * started in. mcp-rt's stdio servers inherit the host's environment (minus
 * names that look secret); the SDK's default environment for a server keeps
 * six variables. A Node server then starts slower under mcp-rt by what these
 * cost a `node -e 0`.
 */
export interface NodeStartEnv {
  names: string[];
  /** Median of a `node -e 0` with them, and without, in ms. */
  withMs: number;
  withoutMs: number;
}

/** Median wall time of `runs` runs of `node -e 0` in `env`, in ms. */
function nodeStartMs(env: NodeJS.ProcessEnv, runs = 7): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    spawnSync(process.execPath, ["-e", "0"], { env, stdio: "ignore" });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[runs >> 1]!;
}

/** Environment variables that change how every Node process starts (see {@link NodeStartEnv}). */
export const NODE_START_VARIABLES: readonly string[] = ["NODE_EXTRA_CA_CERTS", "NODE_OPTIONS"];

/** `env` without {@link NODE_START_VARIABLES}, and which of them it had. */
export function withoutNodeStartVariables(env: NodeJS.ProcessEnv): {
  names: string[];
  env: NodeJS.ProcessEnv;
} {
  const names = NODE_START_VARIABLES.filter((name) => env[name]);
  const without = { ...env };
  for (const name of names) delete without[name];
  return { names, env: without };
}

function readNodeStartEnv(): NodeStartEnv | undefined {
  const without = withoutNodeStartVariables(process.env);
  if (without.names.length === 0) return undefined;
  return { names: without.names, withMs: nodeStartMs(process.env), withoutMs: nodeStartMs(without.env) };
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
  const nodeStartEnv = readNodeStartEnv();
  return {
    cpu: list[0]?.model.trim() || "unknown CPU",
    cores: list.length,
    memoryGiB: totalmem() / 2 ** 30,
    freeMemoryGiB: freemem() / 2 ** 30,
    os: `${type()} ${release()}`,
    node: process.version,
    loadAverage: loadavg()[0] ?? 0,
    ...(autogroup === undefined ? {} : { autogroup }),
    ...(nodeStartEnv === undefined ? {} : { nodeStartEnv }),
  };
}
