import { isSecretEnvName, SECRET_ENV_NAME_PATTERN } from "@mcp-rt/config";

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
