// The shape and defaults of the limits `listTools` applies (`ToolLimiter`, tool-limiter.ts); `/light` exports them.

/**
 * Limits on what one server's tool list may hold, applied by `listTools`.
 * A server past one keeps working: its extra tools are dropped, a long text
 * is cut with a note, an oversized schema is replaced; `onLimit` hears of
 * each kind of breach once per listing.
 */
export interface ToolLimits {
  /** Tools kept per server, in the order listed; the rest are dropped (and no further page is read). @default 2000 */
  maxTools?: number;
  /** Longest tool name accepted, in characters; a tool with a longer name is dropped (it could not be called by a shorter one). @default 128 */
  maxToolNameLength?: number;
  /** Characters of a tool's description (and title) kept; a longer description is cut and ends with a note saying so. @default 4096 */
  maxDescriptionLength?: number;
  /**
   * Deepest nesting (objects and arrays) of a tool's `inputSchema`. A deeper
   * one is replaced by `{ "type": "object" }`, and the description says so;
   * an `outputSchema` or `annotations` past this or `maxSchemaSize` is dropped.
   * @default 64
   */
  maxSchemaDepth?: number;
  /** Largest `inputSchema`, in characters of its JSON (about); a larger one is replaced like a deep one. @default 100000 */
  maxSchemaSize?: number;
}

/** The defaults of {@link ToolLimits}. */
export const DEFAULT_TOOL_LIMITS: Readonly<Required<ToolLimits>> = Object.freeze({
  maxTools: 2000,
  maxToolNameLength: 128,
  maxDescriptionLength: 4096,
  maxSchemaDepth: 64,
  maxSchemaSize: 100_000,
});

/** One kind of breach in one listing, for `ListToolsOptions.onLimit`. */
export interface ToolLimitBreach {
  /** The limit that was passed. */
  limit: keyof ToolLimits;
  /** How many tools it concerned (for `maxTools`: how many were listed past it, at least). */
  tools: number;
  /** What happened, naming the server, the limit and what was done about it. */
  message: string;
}
