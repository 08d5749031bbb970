import { referencedVariables } from "./interpolate.js";
import { isSecretName, isTokenLike, REDACTED, redactText, redactTokens, redactUrl } from "./redact-text.js";
import { isSecretCandidate, MIN_SECRET_LENGTH } from "./secret-candidate.js";
import { containsToken, wholeTokenPattern } from "./whole-token.js";

// A `${…}` placeholder: a value holding one is a template, not a secret.
const PLACEHOLDER = /\$\{[^}]*\}/;

// `--flag=value` and a lone `--flag`.
const FLAG_VALUE = /^(--?[A-Za-z][\w-]*)=(.*)$/s;
const FLAG = /^--?[A-Za-z][\w-]*$/;
// A header as one argument (`--header "Authorization: Bearer …"`, the mcp-remote form).
const HEADER_ARG = /^([A-Za-z][\w-]*)(\s*:\s*)(.+)$/s;

/** Options of {@link redactServerConfig} and {@link expansionReferences}. */
export interface RedactOptions {
  /**
   * The same config as its file has it, placeholders not expanded. A value
   * that an expansion changed is shown as the file writes it (`${TOKEN}`,
   * `Bearer ${env:TOKEN}`), never as what it expanded to.
   */
  template?: unknown;
  /**
   * The environment the config was expanded with ({@link expansionReferences} only).
   */
  env?: Record<string, string | undefined>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** What is shown of a string: the template when an expansion changed it, else the value. */
function provenance(value: string, template: unknown): string {
  return typeof template === "string" && template !== value ? template : value;
}

/** A value from `env` or `headers` as shown: only a reference (`${TOKEN}`) is shown; `!command` values keep their `!`. */
function redactValue(value: string): string {
  if (PLACEHOLDER.test(value)) return redactTokens(value);
  return value.startsWith("!") && !value.startsWith("!!") ? `!${REDACTED}` : REDACTED;
}

function redactArg(arg: string, previous: unknown): string {
  if (PLACEHOLDER.test(arg) && !/[=:]/.test(arg)) return arg;
  const flag = FLAG_VALUE.exec(arg);
  if (flag && isSecretName(flag[1]!) && !PLACEHOLDER.test(flag[2]!)) return `${flag[1]}=${REDACTED}`;
  if (typeof previous === "string" && FLAG.test(previous) && isSecretName(previous)) return REDACTED;
  const header = HEADER_ARG.exec(arg);
  if (header && isSecretName(header[1]!) && !header[3]!.startsWith("//") && !PLACEHOLDER.test(header[3]!)) {
    return `${header[1]}${header[2]}${REDACTED}`;
  }
  return redactText(arg);
}

function redactArgs(args: readonly unknown[], template: unknown): unknown[] {
  const written = Array.isArray(template) && template.length === args.length ? template : [];
  const shown = args.map((arg, index) => (typeof arg === "string" ? provenance(arg, written[index]) : arg));
  return shown.map((arg, index) => (typeof arg === "string" ? redactArg(arg, shown[index - 1]) : REDACTED));
}

/**
 * A copy of a server config safe to print. `env` and `headers` values,
 * `auth.clientSecret` and the values of token-like flags in `args`
 * (`--api-key=…`, `--token …`), of secret-named `NAME=value` arguments
 * (docker's `-e GITHUB_PERSONAL_ACCESS_TOKEN=…`) and of secret-named header
 * arguments (`Authorization: …`) become `***`; URLs lose their credentials,
 * token-like query parameters and token-like path segments (see `redactUrl`);
 * known token shapes (`Bearer …`, `ghp_…`, `sk-…`, JWTs…) are hidden anywhere.
 * A value that is a reference is shown: `${TOKEN}` stays `${TOKEN}`. With a
 * `template`, a value that came from an expansion is shown as written there.
 * Works on unvalidated input too: an `env` or `headers` of the wrong shape is
 * hidden whole, and so is an `args` item that is not a string.
 *
 * @example
 * ```ts
 * redactServerConfig({ command: "npx", args: ["mcp-remote", "--header", "Authorization: Bearer abc"] });
 * // → { command: "npx", args: ["mcp-remote", "--header", "Authorization: ***"] }
 * ```
 */
export function redactServerConfig<T>(config: T, options: RedactOptions = {}): T {
  if (!isRecord(config)) return config;
  const template = isRecord(options.template) ? options.template : {};
  const copy: Record<string, unknown> = { ...config };
  for (const field of ["env", "headers"] as const) {
    const values = copy[field];
    if (values === undefined) continue;
    if (isRecord(values)) {
      const written = isRecord(template[field]) ? template[field] : {};
      copy[field] = Object.fromEntries(
        Object.entries(values).map(([key, value]) => [
          key,
          typeof value === "string" ? redactValue(provenance(value, written[key])) : REDACTED,
        ]),
      );
    } else {
      copy[field] = Array.isArray(values) ? values.map(() => REDACTED) : REDACTED;
    }
  }
  for (const field of ["command", "cwd"] as const) {
    const value = copy[field];
    if (typeof value === "string") copy[field] = redactText(provenance(value, template[field]));
  }
  if (typeof copy.url === "string") copy.url = redactUrl(provenance(copy.url, template.url));
  if (Array.isArray(copy.args)) copy.args = redactArgs(copy.args, template.args);
  const auth = copy.auth;
  if (isRecord(auth)) {
    const written = isRecord(template.auth) ? template.auth : {};
    const shown: Record<string, unknown> = { ...auth };
    for (const key of ["clientId", "scope", "clientMetadataUrl"] as const) {
      const value = auth[key];
      if (typeof value === "string") shown[key] = redactText(provenance(value, written[key]));
    }
    if ("clientSecret" in auth) {
      const secret = auth.clientSecret;
      shown.clientSecret =
        typeof secret === "string" ? redactValue(provenance(secret, written.clientSecret)) : REDACTED;
    }
    copy.auth = shown;
  }
  return copy as T;
}

/** Every string of a config that may hold what an expansion put there. */
function templateStrings(template: unknown): string[] {
  if (!isRecord(template)) return [];
  const out: string[] = [];
  const add = (value: unknown): void => {
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) value.forEach(add);
    else if (isRecord(value)) Object.values(value).forEach(add);
  };
  for (const field of ["command", "args", "env", "url", "headers", "cwd", "auth"]) add(template[field]);
  return out;
}

/** Options of {@link secretValues} and {@link redactConfigText}. */
export interface SecretValuesOptions {
  /**
   * The same config before its `!command` values ran (what `connectToServer`
   * gets as `unresolvedConfig`): an `env` or `headers` value that differs
   * from its written form came from a command or from stored credentials,
   * and is hidden whatever its name or shape.
   */
  written?: unknown;
}

/**
 * The secret values of a config: `env` and `headers` values that can be
 * secrets (by their key's name, their shape or their randomness: see
 * `isSecretCandidate`; numbers too, as a message would print them), URL
 * credentials, token-like parameters and path segments, token-like flag
 * values, secret-named header arguments, `auth.clientSecret`.
 * Used to scrub them from text that quotes a config, such as a validation
 * message. Values shorter than 6 characters are left out: hiding them would
 * blank out ordinary words; so are templates holding a `${…}` placeholder,
 * which messages quote to say what is unset. A plain `env` value such as
 * `MODE=server` is not a secret: explain still shows it as `***` (it goes
 * by provenance), but messages keep the word.
 */
export function secretValues(config: unknown, options: SecretValuesOptions = {}): string[] {
  const found = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === "number" || typeof value === "boolean") value = String(value);
    if (typeof value !== "string" || value.length < MIN_SECRET_LENGTH || PLACEHOLDER.test(value)) return;
    found.add(value);
    // "Bearer <token>": the token alone may be quoted elsewhere.
    const token = /^\S+\s+(\S{6,})$/.exec(value)?.[1];
    if (token) found.add(token);
  };
  if (!isRecord(config)) return [...found];
  const written = isRecord(options.written) ? options.written : {};
  for (const field of ["env", "headers"] as const) {
    const values = config[field];
    if (!values || typeof values !== "object") {
      add(values);
      continue;
    }
    const writtenValues = isRecord(written[field]) ? written[field] : {};
    for (const [key, value] of Object.entries(values)) {
      const text = typeof value === "number" || typeof value === "boolean" ? String(value) : value;
      if (typeof text !== "string") continue;
      const fromCommand = typeof writtenValues[key] === "string" && writtenValues[key] !== text;
      // An array (the wrong shape) has no names to go by: every value counts.
      if (fromCommand || isSecretCandidate(Array.isArray(values) ? undefined : key, text)) add(text);
    }
  }
  if (isRecord(config.auth)) add(config.auth.clientSecret);
  const texts = [config.url, ...(Array.isArray(config.args) ? config.args : [])];
  for (const text of texts) {
    if (typeof text !== "string") continue;
    for (const [, , name, value] of text.matchAll(/(^|[?&;\s])([^=&#\s"?;]+)=([^&#\s"]*)/g))
      if (name && isSecretName(name)) add(value);
    const userinfo = /\b[a-z][a-z0-9+.-]*:\/\/([^/@\s]+)@/i.exec(text)?.[1];
    if (userinfo) for (const part of [userinfo, ...userinfo.split(":")]) add(part);
    // Path segments and parameter values that look like tokens, as redactUrl hides them.
    for (const word of text.split(/[/?&#=@:;,\s"']+/)) if (isTokenLike(word)) add(word);
  }
  if (Array.isArray(config.args)) {
    const args = config.args;
    args.forEach((arg, index) => {
      if (typeof arg !== "string") return;
      const flag = FLAG_VALUE.exec(arg);
      if (flag && isSecretName(flag[1]!)) add(flag[2]);
      const previous = args[index - 1];
      if (typeof previous === "string" && FLAG.test(previous) && isSecretName(previous)) add(arg);
      const header = HEADER_ARG.exec(arg);
      if (header && isSecretName(header[1]!) && !header[3]!.startsWith("//")) add(header[3]);
    });
  }
  return [...found];
}

/**
 * What an expansion with `env` may have copied into a config, each value with
 * the reference to show instead: the values of the variables the config (or
 * its `template`) refers to, and of every variable with a secret-like name,
 * as `${NAME}`. Values shorter than 6 characters are left out.
 */
export function expansionReferences(config: unknown, options: RedactOptions): Map<string, string> {
  const references = new Map<string, string>();
  const env = options.env;
  if (!env) return references;
  const texts = [...templateStrings(config), ...templateStrings(options.template)];
  const names = new Set(texts.flatMap(referencedVariables));
  for (const name of Object.keys(env)) if (isSecretName(name)) names.add(name);
  for (const name of names) {
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    if (value !== undefined && value.length >= 6 && !references.has(value))
      references.set(value, `\${${name}}`);
  }
  return references;
}

/**
 * `text` with every one of `secrets` replaced by `***`, and every key of
 * `references` by its value (`${NAME}`), longest first; each only where it
 * stands as a whole token, never inside a longer word.
 */
export function scrubSecrets(
  text: string,
  secrets: readonly string[],
  references: ReadonlyMap<string, string> = new Map(),
): string {
  const all = new Map<string, string>(references);
  for (const secret of secrets) all.set(secret, REDACTED);
  let out = text;
  for (const [secret, shown] of [...all].sort(([a], [b]) => b.length - a.length))
    if (out.includes(secret)) out = out.replace(wholeTokenPattern(secret), () => shown);
  return out;
}

/** Options of {@link redactConfigText}. */
export interface RedactConfigTextOptions extends SecretValuesOptions {
  /** The config whose secret values are hidden (`env`, `headers`, as written or resolved). */
  config: unknown;
  /** The server's name: never masked, even when a value of its config reads the same. */
  server?: string;
}

/**
 * `text` (an error message, a log line) with the secrets of `config` hidden
 * where they stand as whole tokens (see {@link secretValues} for which values
 * count: `MODE=server` does not, `GITHUB_TOKEN=…` does), and whatever
 * `redactText` recognises (URL credentials and path tokens, token shapes):
 * what a server or the network answered may quote them. The server's own
 * name stays readable.
 *
 * @example
 * ```ts
 * redactConfigText('header "Bearer abc-123-def" refused', { config: { url: "https://h/mcp", headers: { Authorization: "Bearer abc-123-def" } } });
 * // → 'header "***" refused'
 * ```
 */
export function redactConfigText(text: string, options: RedactConfigTextOptions): string {
  const { server, config } = options;
  const secrets = secretValues(config, options).filter(
    (secret) => server === undefined || !containsToken(server, secret),
  );
  return redactText(scrubSecrets(text, secrets));
}
