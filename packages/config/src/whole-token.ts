// A letter, a digit or `_`: what a token continues with when it is part of a longer word.
const WORD_CHAR = /[\p{L}\p{N}_]/u;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A global pattern for `value` where it stands as a whole token: not inside
 * a longer word. An edge of `value` that is itself punctuation (`==` of
 * base64, `/` of a path) needs no boundary, so `/home/u` still matches in
 * `/home/u/data` and `secret` does not match in `secretary`.
 */
export function wholeTokenPattern(value: string): RegExp {
  const before = WORD_CHAR.test(value.at(0) ?? "") ? "(?<![\\p{L}\\p{N}_])" : "";
  const after = WORD_CHAR.test(value.at(-1) ?? "") ? "(?![\\p{L}\\p{N}_])" : "";
  return new RegExp(`${before}${escapeRegExp(value)}${after}`, "gu");
}

/** True when `text` holds `value` as a whole token (see {@link wholeTokenPattern}). */
export function containsToken(text: string, value: string): boolean {
  return value !== "" && wholeTokenPattern(value).test(text);
}
