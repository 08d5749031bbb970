/**
 * Every error code an mcp-rt package can raise. One union for all packages, so
 * a caller can `switch` on `error.code` without knowing which package threw.
 */
export type McpRtErrorCode =
  | "CONFIG_INVALID"
  | "CONFIG_UNREADABLE"
  | "VAR_UNSET"
  | "INPUT_UNRESOLVED"
  | "SHELL_FAILED"
  | "SPAWN_FAILED"
  | "CONNECT_TIMEOUT"
  | "INIT_FAILED"
  | "HTTP_ERROR"
  | "AUTH_REQUIRED"
  | "TRANSPORT_CLOSED"
  | "REQUEST_TIMEOUT"
  | "PROTOCOL_ERROR"
  | "TOOL_NOT_FOUND"
  | "TOOL_NAME_TAKEN"
  | "NOT_CONNECTED"
  | "UNKNOWN_SERVER"
  | "CACHE_ERROR"
  | "LIMIT_EXCEEDED"
  | "ABORTED";

/** Options of {@link McpRtError}. */
export interface McpRtErrorOptions {
  /** The underlying error, if any. */
  cause?: unknown;
  /** The server the error is about, if any. */
  server?: string | undefined;
  /** The last lines a stdio server wrote to stderr before the error. */
  stderrTail?: string | undefined;
  /** Anything else a UI may want to show (HTTP status, WWW-Authenticate header…). */
  details?: Record<string, unknown> | undefined;
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
export class McpRtError extends Error {
  /** What kind of failure this is. */
  readonly code: McpRtErrorCode;
  /** The server the error is about, if any. */
  readonly server?: string;
  /** The last lines the server wrote to stderr, if it is a stdio server. */
  readonly stderrTail?: string;
  /** Extra structured facts (HTTP status, headers…). */
  readonly details?: Record<string, unknown>;

  constructor(code: McpRtErrorCode, message: string, options: McpRtErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "McpRtError";
    this.code = code;
    if (options.server !== undefined) this.server = options.server;
    if (options.stderrTail !== undefined) this.stderrTail = options.stderrTail;
    if (options.details !== undefined) this.details = options.details;
    Object.defineProperty(this, brand, { value: true });
  }

  /** True for any `McpRtError`, even one created by another copy of this package. */
  static isInstance(error: unknown): error is McpRtError {
    return typeof error === "object" && error !== null && (error as { [brand]?: unknown })[brand] === true;
  }
}
