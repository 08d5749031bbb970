import { isSecretName, isTokenLike, redactText } from "./redact-text.js";
import { isSecretEnvName } from "./secret-env-name.js";

// Shorter values are never hidden in messages: as whole tokens they would still be ordinary words.
export const MIN_SECRET_LENGTH = 6;

// A generated key or password is at least this long to count by its shape alone.
const MIN_RANDOM_LENGTH = 16;

// The characters of a generated token: base64, base64url, hex and the separators keys use.
const TOKEN_ALPHABET = /^[A-Za-z0-9+/=_.~-]+$/;

function charClass(char: string): "lower" | "upper" | "digit" | undefined {
  if (char >= "a" && char <= "z") return "lower";
  if (char >= "A" && char <= "Z") return "upper";
  if (char >= "0" && char <= "9") return "digit";
  return undefined;
}

/**
 * True for a value that reads as machine-made: at least 16 characters of a
 * token alphabet (`[A-Za-z0-9+/=_.~-]`), letters and digits both, and
 * neighbouring letters and digits switching between lower case, upper case
 * and digit at least once in every three pairs. A generated key switches at
 * about two pairs in three (base62; hex one in two, and 32 hex digits count
 * by shape anyway); a word, a path, a version, a date or a model name
 * switches rarely (`gpt-4o-mini-2024-07-18`: once in 21 pairs). A `CamelCase`
 * name studded with digits (`Node20WithPnpm9Cache`) can pass: a false alarm
 * costs a masked word in a message, a miss a leaked key.
 */
export function looksRandom(value: string): boolean {
  if (value.length < MIN_RANDOM_LENGTH || !TOKEN_ALPHABET.test(value)) return false;
  if (!/[A-Za-z]/.test(value) || !/\d/.test(value)) return false;
  let switches = 0;
  for (let index = 1; index < value.length; index++) {
    const before = charClass(value[index - 1]!);
    const after = charClass(value[index]!);
    if (before && after && before !== after) switches++;
  }
  return switches * 3 >= value.length - 1;
}

/**
 * Whether a value of a config's `env` or `headers` can be a secret, and so is
 * hidden wherever a message quotes it. A value of at least 6 characters is one
 * when its key's name says so (`GITHUB_TOKEN`, `Authorization`, `X-Api-Key`:
 * `isSecretName` or {@link isSecretEnvName}), when its shape does (a known
 * token shape such as `ghp_…` or `Bearer …`, a UUID, long hex, a URL with
 * credentials: what `redactText` hides), or when it looks machine-made
 * ({@link looksRandom}). `MODE=server` is not: messages keep the word.
 * Without a `key` (an `env` of the wrong shape) every value counts.
 */
export function isSecretCandidate(key: string | undefined, value: string): boolean {
  if (value.length < MIN_SECRET_LENGTH) return false;
  if (key === undefined || isSecretName(key) || isSecretEnvName(key)) return true;
  return isTokenLike(value) || redactText(value) !== value || looksRandom(value);
}
