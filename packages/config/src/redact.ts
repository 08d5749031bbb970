/** What a hidden secret is shown as. */
export const REDACTED = "***";

// Query parameters and CLI flags whose values are credentials.
const SECRET_NAME =
  /(^|[^a-z])(token|key|apikey|api[-_]?key|access[-_]?token|secret|password|passwd|pwd|auth|authorization|credential|credentials|signature|sig|session)([^a-z]|$)|(token|key|secret|password|credential|auth)$/i;

/** True for a query parameter or flag name whose value is likely a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * A URL with its credentials hidden: `user:pass@` and the values of token-like
 * query parameters (`token`, `key`, `apikey`, `api_key`, `access_token`,
 * `secret`, `password`, `auth`…) become `***`. A string that is not a URL is
 * returned with any `scheme://user:pass@` part hidden.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, `$1${REDACTED}@`);
  }
  if (parsed.username) parsed.username = REDACTED;
  if (parsed.password) parsed.password = REDACTED;
  let changed = parsed.username !== "" || parsed.password !== "";
  for (const name of new Set(parsed.searchParams.keys())) {
    if (isSecretName(name)) {
      parsed.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  // Untouched URLs keep their exact spelling (URL would normalise them).
  return changed ? parsed.toString() : url;
}

/** A value from `env` or `headers` as shown: `!command` values keep their `!`, so a reader knows one runs. */
function redactValue(value: string): string {
  return value.startsWith("!") && !value.startsWith("!!") ? `!${REDACTED}` : REDACTED;
}

function redactArgs(args: readonly string[]): string[] {
  return args.map((arg, index) => {
    const previous = index > 0 ? args[index - 1] : undefined;
    const flag = /^(--?[A-Za-z][\w-]*)=(.*)$/.exec(arg);
    if (flag && isSecretName(flag[1]!.replace(/^-+/, ""))) return `${flag[1]}=${REDACTED}`;
    if (previous && /^--?[A-Za-z][\w-]*$/.test(previous) && isSecretName(previous.replace(/^-+/, ""))) {
      return REDACTED;
    }
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(arg) ? redactUrl(arg) : arg;
  });
}

/**
 * A copy of a server config safe to print: every `env` and `headers` value,
 * URL credentials and token-like query parameters, and the values of
 * token-like flags in `args` (`--api-key=…`, `--token …`) become `***`.
 * Works on unvalidated input too; anything else is copied as is.
 */
export function redactServerConfig<T>(config: T): T {
  if (config === null || typeof config !== "object" || Array.isArray(config)) return config;
  const copy: Record<string, unknown> = { ...(config as Record<string, unknown>) };
  for (const field of ["env", "headers"] as const) {
    const values = copy[field];
    if (values && typeof values === "object" && !Array.isArray(values)) {
      copy[field] = Object.fromEntries(
        Object.entries(values).map(([key, value]) => [
          key,
          typeof value === "string" ? redactValue(value) : REDACTED,
        ]),
      );
    }
  }
  if (typeof copy.url === "string") copy.url = redactUrl(copy.url);
  if (Array.isArray(copy.args) && copy.args.every((arg) => typeof arg === "string")) {
    copy.args = redactArgs(copy.args as string[]);
  }
  return copy as T;
}
