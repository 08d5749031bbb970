/** What a hidden secret is shown as. */
export const REDACTED = "***";

// Query parameters, CLI flags, `NAME=value` and header names whose values are credentials.
const SECRET_NAME =
  /(^|[^a-z])(token|key|apikey|api[-_]?key|access[-_]?token|secret|password|passwd|pwd|pass|passphrase|auth|authorization|credential|credentials|signature|sig|session|sessionid|sid|jwt|bearer|cookie|pat|dsn)([^a-z]|$)|(token|key|secret|password|credential|auth|sessionid)$/i;

// Query parameters that are only secrets under their exact name (OAuth's `code`).
const SECRET_QUERY_NAME = /^(code|state|ticket|nonce)$/i;

// `?name=value` / `&name=value` (or a bare `name=value`) in text that does not parse as a URL.
const QUERY_PARAM = /(^|[?&;\s])([^=&#\s"?;]+)=([^&#\s"]*)/g;

// Credentials whose shape gives them away wherever they appear: GitHub, OpenAI /
// Anthropic (`sk-`), Slack, GitLab, npm, AWS access key ids, Google API keys, JWTs.
const TOKEN_SHAPES: readonly RegExp[] = [
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}/g,
  /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
];

// `Bearer <token>` / `Basic <token>`: a token has a digit, or is long (so "Bearer authentication" stays).
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+)([A-Za-z0-9._~+/=-]{8,})/gi;

// A URL inside text: up to whitespace, a quote or a closing bracket.
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`)\]]+/gi;

/** True for a query parameter, flag, header or variable name whose value is likely a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * True for a word that looks like a credential on its own: a known token shape
 * (`ghp_…`, `github_pat_…`, `sk-…`, `xox[abprs]-…`, a JWT…), a UUID, 32+ hex
 * digits, or a long random-looking word (20+ base64 characters mixing upper
 * case, lower case and digits; or 32+ characters of `[A-Za-z0-9_-]` with at
 * least 4 digits), as the secret path segments of Zapier and Composio URLs are.
 * Free text keeps such words (they may be request ids); URLs do not.
 */
export function isTokenLike(word: string): boolean {
  if (TOKEN_SHAPES.some((shape) => new RegExp(`^(?:${shape.source})$`).test(word))) return true;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(word)) return true;
  if (/^[0-9a-f]{32,}$/i.test(word)) return true;
  const digits = word.replace(/\D/g, "").length;
  if (digits === 0) return false;
  const mixed =
    word.length >= 20 && /^[A-Za-z0-9_=+~-]+$/.test(word) && /[a-z]/.test(word) && /[A-Z]/.test(word);
  return mixed || (word.length >= 32 && /^[A-Za-z0-9_-]+$/.test(word) && digits >= 4);
}

/** `text` with known token shapes and `Bearer`/`Basic` credentials hidden (see {@link isTokenLike}). */
export function redactTokens(text: string): string {
  let out = text;
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED);
  return out.replace(AUTH_SCHEME, (whole, scheme: string, space: string, token: string) =>
    /\d/.test(token) || token.length >= 20 ? `${scheme}${space}${REDACTED}` : whole,
  );
}

function isSecretParam(name: string, value: string): boolean {
  // A `${…}` reference is what a reader should see, not a secret.
  if (/\$\{[^}]*\}/.test(value)) return false;
  return isSecretName(name) || SECRET_QUERY_NAME.test(name) || isTokenLike(safeDecode(value));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function redactPath(path: string): string {
  return path
    .split("/")
    .map((segment) => (segment !== "" && isTokenLike(safeDecode(segment)) ? REDACTED : segment))
    .join("/");
}

function redactParams(text: string): string {
  return text.replace(QUERY_PARAM, (whole, lead: string, name: string, value: string) =>
    isSecretParam(name, value) ? `${lead}${name}=${REDACTED}` : whole,
  );
}

/**
 * A URL with its credentials hidden: `user:pass@`, the values of token-like
 * query parameters (`token`, `key`, `apikey`, `api_key`, `access_token`,
 * `secret`, `password`, `auth`, `code`…) and of parameters whose value looks
 * like a token, `name=value` pairs of the fragment likewise, and path
 * segments that look like tokens (`https://mcp.zapier.com/api/mcp/s/<secret>/mcp`)
 * become `***`. A string that is not a URL gets the same treatment as text.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactNonUrl(url);
  }
  if (parsed.username) parsed.username = REDACTED;
  if (parsed.password) parsed.password = REDACTED;
  let changed = parsed.username !== "" || parsed.password !== "";
  for (const name of new Set(parsed.searchParams.keys())) {
    if (parsed.searchParams.getAll(name).some((value) => isSecretParam(name, value))) {
      parsed.searchParams.set(name, REDACTED);
      changed = true;
    }
  }
  const path = parsed.pathname;
  const hiddenPath = redactPath(path);
  const hash = parsed.hash;
  const hiddenHash = redactTokens(redactParams(hash));
  if (!changed && hiddenPath === path && hiddenHash === hash) return redactTokens(url);
  // `*` needs no escaping in a path, a query or a fragment, so `***` reads as written.
  parsed.pathname = hiddenPath;
  parsed.hash = hiddenHash;
  return redactTokens(parsed.toString());
}

// Text that is not a URL but may hold one (`host/path?token=…`, `see https://…`).
function redactNonUrl(text: string): string {
  const withUrls = text.replace(URL_IN_TEXT, (found) => (found === text ? found : redactUrl(found)));
  const userinfo = withUrls.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, `$1${REDACTED}@`);
  const [head = "", ...rest] = userinfo.split(/(?=[?#])/);
  const path = /\s/.test(head) ? head : redactPath(head);
  return redactTokens(redactParams([path, ...rest].join("")));
}

/**
 * Free text (an error message, a log line, a config value) with its
 * credentials hidden: every URL in it as {@link redactUrl} hides them,
 * `name=value` pairs with a secret-like name, and known token shapes
 * (`Bearer …`, `ghp_…`, `sk-…`, `xox…-`, JWTs).
 */
export function redactText(text: string): string {
  const withUrls = text.replace(URL_IN_TEXT, (found) => redactUrl(found));
  return redactTokens(redactParams(withUrls));
}
