/**
 * Environment variable names that look like secrets: they are not passed on to
 * a server unless its config's `env` sets them (`"X": "${X}"`) or its
 * `envPassthrough` names them. Any case; a name matches when it contains
 * `TOKEN`, `SECRET`, `PASSWORD`, `PASSWD`, `API_KEY`/`APIKEY`, `CREDENTIAL`,
 * `ACCESS_KEY`, `PRIVATE_KEY`, `SIGNING_KEY`, `DATABASE_URL`, `WEBHOOK`, `JWT`
 * or `COOKIE`; ends in `_PASS`, `_PAT` or `_DSN` (or is one of them); starts
 * with `NPM_CONFIG__AUTH`; or is `SSH_AUTH_SOCK` (the key agent: it signs as you).
 */
export const SECRET_ENV_NAME_PATTERN: RegExp =
  /TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|CREDENTIAL|ACCESS_KEY|PRIVATE_KEY|SIGNING_KEY|DATABASE_URL|WEBHOOK|JWT|COOKIE|(?:^|_)(?:PASS|PAT|DSN)$|^NPM_CONFIG__AUTH|^SSH_AUTH_SOCK$/i;

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
