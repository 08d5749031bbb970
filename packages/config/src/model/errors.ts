import type { McpRtErrorDetails } from "./error-details.js";

/**
 * Every error code an mcp-rt package can raise. One union for all packages, so
 * a caller can `switch` on `error.code` without knowing which package threw;
 * what each carries in `details` is {@link McpRtErrorDetails}.
 */
export type McpRtErrorCode = keyof McpRtErrorDetails;

/** Options of {@link McpRtError}. */
export interface McpRtErrorOptions<C extends McpRtErrorCode = McpRtErrorCode> {
  /** The underlying error, if any. */
  cause?: unknown;
  /** The server the error is about, if any. */
  server?: string | undefined;
  /** The last lines a stdio server wrote to stderr before the error. */
  stderrTail?: string | undefined;
  /** The code's facts (HTTP status, exit code…): {@link McpRtErrorDetails}. */
  details?: McpRtErrorDetails[C] | undefined;
}

// A registered symbol (not `instanceof`) so two copies of this package in one
// install still recognise each other's errors.
const brand = Symbol.for("@mcp-rt/McpRtError");

/**
 * The base error of every mcp-rt package. Messages say what happened, to which
 * server, and what to change.
 *
 * @example
 * ```ts
 * try { await manager.waitForConnection("github"); }
 * catch (e) { if (McpRtError.isInstance(e) && e.code === "CONNECT_TIMEOUT") … }
 * ```
 */
export class McpRtError<C extends McpRtErrorCode = McpRtErrorCode> extends Error {
  /** What kind of failure this is. */
  readonly code: C;
  /** The server the error is about, if any. */
  readonly server?: string;
  /** The last lines the server wrote to stderr, if it is a stdio server. */
  readonly stderrTail?: string;
  /** The code's facts (HTTP status, exit code…), as {@link McpRtErrorDetails} says for each code. */
  readonly details?: McpRtErrorDetails[C];

  constructor(code: C, message: string, options: McpRtErrorOptions<C> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "McpRtError";
    this.code = code;
    if (options.server !== undefined) this.server = options.server;
    if (options.stderrTail !== undefined) this.stderrTail = options.stderrTail;
    if (options.details !== undefined) this.details = options.details;
    Object.defineProperty(this, brand, { value: true });
  }

  /**
   * A copy with some parts changed (a longer message, more facts, the stderr
   * tail): the code, server and cause stay.
   */
  with(changes: {
    message?: string;
    details?: McpRtErrorDetails[C] | undefined;
    stderrTail?: string | undefined;
  }): McpRtError<C> {
    const has = (key: string): boolean => Object.hasOwn(changes, key);
    return new McpRtError(this.code, changes.message ?? this.message, {
      server: this.server,
      cause: this.cause,
      stderrTail: has("stderrTail") ? changes.stderrTail : this.stderrTail,
      details: has("details") ? changes.details : this.details,
    });
  }

  /**
   * True for any `McpRtError`, even one created by another copy of this
   * package; with codes, true only for those, and `details` is typed by them.
   *
   * @example
   * ```ts
   * if (McpRtError.isInstance(e, "HTTP_ERROR")) console.log(e.details?.status);
   * ```
   */
  static isInstance<C extends McpRtErrorCode = McpRtErrorCode>(
    error: unknown,
    ...codes: C[]
  ): error is McpRtError<C> {
    if (typeof error !== "object" || error === null || (error as { [brand]?: unknown })[brand] !== true)
      return false;
    return codes.length === 0 || (codes as readonly string[]).includes((error as McpRtError).code);
  }
}
