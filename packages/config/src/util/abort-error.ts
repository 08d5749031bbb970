/**
 * The `AbortError` an aborted operation rejects with, as `fetch` and Node's own
 * APIs do: a `DOMException` named `AbortError` whose message says what was
 * aborted (`${what} was aborted`), with the signal's `reason` as `cause`.
 *
 * A `reason` that already is an `AbortError` is returned as it is, so a caller
 * who aborts with an error of their own gets that very error back.
 *
 * @param what the operation, as the start of a sentence: `The tool call to MCP server "x"`.
 * @param reason the abort signal's `reason`.
 */
export function abortError(what: string, reason?: unknown): DOMException {
  if (reason instanceof DOMException && reason.name === "AbortError") return reason;
  return new DOMException(`${what} was aborted`, { name: "AbortError", cause: reason });
}
