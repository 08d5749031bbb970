import { isAbsolute, resolve } from "node:path";
import { isSecretEnvName, SECRET_ENV_NAME_PATTERN } from "@mcp-rt/config";

// How a stdio server's process is launched: with which environment, in which folder, and when.

// The pattern lives in config, which also hides these names' values in messages.
export { isSecretEnvName, SECRET_ENV_NAME_PATTERN };

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
 * variables whose names look secret ({@link SECRET_ENV_NAME_PATTERN}) unless
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
 * Waits for this process launch's turn: launches take turns, one event-loop
 * iteration apart. `spawn()` blocks the event loop for a whole `fork` +
 * `exec` (25–40 ms on a busy machine); twenty of them back to back would
 * hold every timer, I/O callback and cache read for their sum. Taking turns
 * lets timers (a startup gate), finished reads and answers run between two
 * launches, so nothing waits for more than one launch. Call it right before
 * spawning, and spawn without awaiting anything else in between.
 */
export function launchTurn(): Promise<void> {
  // Holds are checked again after the iteration: a hold set by a timer in between applies at once.
  const turn = lastTurn.then(afterHolds).then(nextIteration).then(afterHolds);
  lastTurn = turn;
  return turn;
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
