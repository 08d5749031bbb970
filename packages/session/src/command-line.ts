/** The result of splitting a command line into words. */
export type SplitResult = { ok: true; words: string[] } | { ok: false; error: string };

/**
 * Splits a command line into words the way a POSIX shell does for plain words:
 * whitespace separates, `'…'` is literal, `"…"` allows `\"` and `\\`, and a
 * backslash outside quotes escapes the next character. No expansion of any kind.
 */
export function splitCommandLine(line: string): SplitResult {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const char = line[i]!;
    if (char === " " || char === "\t" || char === "\n" || char === "\r") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i += 1;
      continue;
    }
    inWord = true;
    if (char === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return { ok: false, error: "unterminated ' quote" };
      word += line.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (char === '"') {
      i += 1;
      let closed = false;
      while (i < line.length) {
        const inner = line[i]!;
        if (inner === '"') {
          closed = true;
          i += 1;
          break;
        }
        if (inner === "\\" && (line[i + 1] === '"' || line[i + 1] === "\\")) {
          word += line[i + 1];
          i += 2;
          continue;
        }
        word += inner;
        i += 1;
      }
      if (!closed) return { ok: false, error: 'unterminated " quote' };
      continue;
    }
    if (char === "\\") {
      if (i + 1 >= line.length) return { ok: false, error: "a trailing \\ escapes nothing" };
      word += line[i + 1];
      i += 2;
      continue;
    }
    word += char;
    i += 1;
  }
  if (inWord) words.push(word);
  return { ok: true, words };
}

/** Parses `K=V` pairs (first `=` splits) into a record; returns the offending pair on failure. */
export function parsePairs(
  pairs: readonly string[],
): { ok: true; value: Record<string, string> } | { ok: false; bad: string } {
  const value: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) return { ok: false, bad: pair };
    value[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return { ok: true, value };
}
