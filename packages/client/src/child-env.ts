/**
 * Environment variable names that look like secrets: they are not passed on to
 * a server unless its config's `env` sets them explicitly.
 */
export const SECRET_ENV_NAME_PATTERN: RegExp = /TOKEN|SECRET|PASSWORD|API_?KEY|CREDENTIAL/i;

/** True when `name` looks like it holds a secret (see {@link SECRET_ENV_NAME_PATTERN}). */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME_PATTERN.test(name);
}

/** Options of {@link createServerEnv}. */
export interface ServerEnvOptions {
  /** The environment to inherit from. @default process.env */
  parent?: Record<string, string | undefined>;
  /** The server config's `env`, applied on top without filtering. */
  env?: Record<string, string>;
  /** Decides whether names compare case-insensitively (Windows). @default process.platform */
  platform?: NodeJS.Platform;
}

/**
 * Builds the environment of a stdio server: the parent's environment minus
 * variables whose names look secret (`TOKEN`, `SECRET`, `PASSWORD`,
 * `API_KEY`/`APIKEY`, `CREDENTIAL`, any case) and minus exported shell
 * functions (values starting with `()`), then the config's `env` on top.
 *
 * @example
 * ```ts
 * createServerEnv({ parent: { PATH: "/bin", GITHUB_TOKEN: "x" }, env: { DEBUG: "1" } });
 * // → { PATH: "/bin", DEBUG: "1" }
 * ```
 */
export function createServerEnv(options: ServerEnvOptions = {}): Record<string, string> {
  const parent = options.parent ?? process.env;
  const caseInsensitive = (options.platform ?? process.platform) === "win32";
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || isSecretEnvName(name) || value.startsWith("()")) continue;
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
