/**
 * A line that says it is an error: `Error: …`, `TypeError: …`, `[cause]:
 * Error: …`, `Error [ERR_X]: …`, `error: …`, `fatal: …`, `panic: …` (the
 * name and a colon: a line of source code quoted above a stack is not one).
 */
const SAYS_ERROR =
  /^\s*(?:\[cause\]:\s*)?(?:[A-Z]\w*(?:Error|Exception)|Error|Exception|error|fatal|FATAL|panic)(?:\s*\[[\w-]+\])?:\s/;

/** An errno (`ENOTFOUND`, `EACCES`): upper case, as Node and libc spell them. */
const ERRNO = /\bE[A-Z]{3,}\b/;

/** Words that name a failure, in any case. */
const FAILURE_WORDS =
  /\b(?:not found|cannot|can't|could not|couldn't|unable|failed|failure|denied|refused|invalid|missing|unsupported|timed out|no such)\b/i;

/** A line that names a failure: an errno, "not found", "cannot", "denied"… */
const namesFailure = (line: string): boolean => ERRNO.test(line) || FAILURE_WORDS.test(line);

/** Lines that say nothing of why: stack frames, Node's version footer, brackets, carets. */
const NOISE = /^\s*(?:at\s|Node\.js v\d|[{}[\]()^~]+,?$|\.\.\.|node:internal\/)/;

/** Characters of the line a message keeps. */
const MAX_LINE = 300;

/**
 * The line of a server's stderr that says most about why it failed, for a
 * one-line message: the last line that says it is an error (`Error: getaddrinfo
 * ENOTFOUND svelte.dev`), else the last that names a failure (`EACCES`, `not
 * found`, `cannot …`), else the last line that is not a stack frame or
 * punctuation; cut at 300 characters. The whole tail stays on the error
 * (`stderrTail`) for whoever shows it.
 */
export function mostTellingLine(stderr: string): string | undefined {
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !NOISE.test(line));
  const line =
    lines.findLast((entry) => SAYS_ERROR.test(entry)) ?? lines.findLast(namesFailure) ?? lines.at(-1);
  if (line === undefined) return undefined;
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}
