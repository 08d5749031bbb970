/** What a hidden secret is shown as. */
export const REDACTED = "***";

// Query parameters and CLI flags whose values are credentials.
const SECRET_NAME =
  /(^|[^a-z])(token|key|apikey|api[-_]?key|access[-_]?token|secret|password|passwd|pwd|auth|authorization|credential|credentials|signature|sig|session)([^a-z]|$)|(token|key|secret|password|credential|auth)$/i;

// `?name=value` / `&name=value` (or a bare `name=value`) in text that does not parse as a URL.
const QUERY_PARAM = /(^|[?&;\s])([^=&#\s"?;]+)=([^&#\s"]*)/g;

// A `${…}` placeholder: a value holding one is a template, not a secret.
const PLACEHOLDER = /\$\{[^}]*\}/;

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
    return url
      .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, `$1${REDACTED}@`)
      .replace(QUERY_PARAM, (whole, lead: string, name: string) =>
        isSecretName(name) ? `${lead}${name}=${REDACTED}` : whole,
      );
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

function redactArgs(args: readonly unknown[]): unknown[] {
  return args.map((arg, index) => {
    if (typeof arg !== "string") return REDACTED;
    const previous = index > 0 ? args[index - 1] : undefined;
    const flag = /^(--?[A-Za-z][\w-]*)=(.*)$/.exec(arg);
    if (flag && isSecretName(flag[1]!.replace(/^-+/, ""))) return `${flag[1]}=${REDACTED}`;
    if (
      typeof previous === "string" &&
      /^--?[A-Za-z][\w-]*$/.test(previous) &&
      isSecretName(previous.replace(/^-+/, ""))
    ) {
      return REDACTED;
    }
    return /^[a-z][a-z0-9+.-]*:\/\/|[?&]/i.test(arg) ? redactUrl(arg) : arg;
  });
}

/**
 * A copy of a server config safe to print: every `env` and `headers` value,
 * URL credentials and token-like query parameters, the values of token-like
 * flags in `args` (`--api-key=…`, `--token …`) and `auth.clientSecret` become `***`.
 * Works on unvalidated input too: an `env` or `headers` of the wrong shape is
 * hidden whole, and so is an `args` item that is not a string.
 */
export function redactServerConfig<T>(config: T): T {
  if (config === null || typeof config !== "object" || Array.isArray(config)) return config;
  const copy: Record<string, unknown> = { ...(config as Record<string, unknown>) };
  for (const field of ["env", "headers"] as const) {
    const values = copy[field];
    if (values === undefined) continue;
    if (values && typeof values === "object" && !Array.isArray(values)) {
      copy[field] = Object.fromEntries(
        Object.entries(values).map(([key, value]) => [
          key,
          typeof value === "string" ? redactValue(value) : REDACTED,
        ]),
      );
    } else {
      copy[field] = Array.isArray(values) ? values.map(() => REDACTED) : REDACTED;
    }
  }
  if (typeof copy.url === "string") copy.url = redactUrl(copy.url);
  if (Array.isArray(copy.args)) copy.args = redactArgs(copy.args);
  const auth = copy.auth;
  if (auth && typeof auth === "object" && !Array.isArray(auth) && "clientSecret" in auth) {
    const secret = (auth as { clientSecret?: unknown }).clientSecret;
    copy.auth = { ...auth, clientSecret: typeof secret === "string" ? redactValue(secret) : REDACTED };
  }
  return copy as T;
}

/**
 * The secret values of a config, as {@link redactServerConfig} would hide
 * them: `env` and `headers` values (numbers too, as a message would print
 * them), URL credentials and token-like parameters, token-like flag values,
 * `auth.clientSecret`.
 * Used to scrub them from text that quotes a config, such as a validation
 * message. Values shorter than 6 characters are left out: hiding them would
 * blank out ordinary words; so are templates holding a `${…}` placeholder,
 * which messages quote to say what is unset.
 */
export function secretValues(config: unknown): string[] {
  if (config === null || typeof config !== "object" || Array.isArray(config)) return [];
  const record = config as Record<string, unknown>;
  const found = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === "number" || typeof value === "boolean") value = String(value);
    if (typeof value !== "string" || value.length < 6 || PLACEHOLDER.test(value)) return;
    found.add(value);
    // "Bearer <token>": the token alone may be quoted elsewhere.
    const token = /^\S+\s+(\S{6,})$/.exec(value)?.[1];
    if (token) found.add(token);
  };
  for (const field of ["env", "headers"] as const) {
    const values = record[field];
    if (values && typeof values === "object") Object.values(values).forEach(add);
    else add(values);
  }
  const auth = record.auth;
  if (auth && typeof auth === "object" && !Array.isArray(auth))
    add((auth as { clientSecret?: unknown }).clientSecret);
  const texts = [record.url, ...(Array.isArray(record.args) ? record.args : [])];
  for (const text of texts) {
    if (typeof text !== "string") continue;
    for (const [, , name, value] of text.matchAll(QUERY_PARAM)) if (name && isSecretName(name)) add(value);
    const userinfo = /\b[a-z][a-z0-9+.-]*:\/\/([^/@\s]+)@/i.exec(text)?.[1];
    if (userinfo) for (const part of [userinfo, ...userinfo.split(":")]) add(part);
  }
  if (Array.isArray(record.args)) {
    const args = record.args;
    args.forEach((arg, index) => {
      if (typeof arg !== "string") return;
      const flag = /^(--?[A-Za-z][\w-]*)=(.*)$/.exec(arg);
      if (flag && isSecretName(flag[1]!.replace(/^-+/, ""))) add(flag[2]);
      const previous = args[index - 1];
      if (
        typeof previous === "string" &&
        /^--?[A-Za-z][\w-]*$/.test(previous) &&
        isSecretName(previous.replace(/^-+/, ""))
      ) {
        add(arg);
      }
    });
  }
  return [...found];
}

/** `text` with every one of `secrets` replaced by `***`, longest first. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length))
    out = out.replaceAll(secret, REDACTED);
  return out;
}
