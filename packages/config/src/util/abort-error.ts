/**
 * The `AbortError` an aborted operation rejects with, as `fetch` and Node's own
 * APIs do: a `DOMException` named `AbortError` whose message says what was
 * aborted (`${what} was aborted`), with the signal's `reason` as `cause` (a
 * caller who aborted with an error of their own finds it there).
 *
 * @param what the operation, as the start of a sentence: `The tool call to MCP server "x"`.
 * @param reason the abort signal's `reason`.
 */
export function abortError(what: string, reason?: unknown): DOMException {
  return new DOMException(`${what} was aborted`, { name: "AbortError", cause: reason });
}
