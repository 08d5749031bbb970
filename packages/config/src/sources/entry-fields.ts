import { isPlainObject } from "../util/describe-value.js";

/** The fields of `entry` named in `fields` that are present, unchanged. */
export function pickFields(
  entry: Record<string, unknown>,
  fields: readonly string[],
): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    if (entry[field] !== undefined) picked[field] = entry[field];
  }
  return picked;
}

// Spellings clients use for Streamable HTTP.
const HTTP_ALIASES = new Set(["http", "streamable-http", "streamablehttp", "streamable_http"]);

/**
 * A client's transport `type` in mcp-rt's terms: the Streamable HTTP spellings
 * (`streamable-http`, `streamableHttp`…) become `http`; anything else is kept
 * as written for validation to judge.
 */
export function transportType(type: unknown): unknown {
  if (typeof type !== "string") return type;
  const lower = type.toLowerCase();
  if (HTTP_ALIASES.has(lower)) return "http";
  if (lower === "sse" || lower === "stdio") return lower;
  return type;
}

/**
 * An OAuth block (`oauth` of Claude Code / Gemini, `auth` of Cursor) as an
 * mcp-rt `auth`: client id and secret, scopes (a list or a space-separated
 * string) and a fixed callback port. `undefined` when it carries none of them.
 */
export function oauthAuth(options: {
  clientId?: unknown;
  clientSecret?: unknown;
  scopes?: unknown;
  callbackPort?: unknown;
}): Record<string, unknown> | undefined {
  const auth: Record<string, unknown> = { type: "oauth" };
  if (options.clientId !== undefined) auth.clientId = options.clientId;
  if (options.clientSecret !== undefined) auth.clientSecret = options.clientSecret;
  const scopes = options.scopes;
  if (Array.isArray(scopes) && scopes.every((scope) => typeof scope === "string"))
    auth.scope = scopes.join(" ");
  else if (scopes !== undefined) auth.scope = scopes;
  if (options.callbackPort !== undefined) auth.callbackPort = options.callbackPort;
  return Object.keys(auth).length > 1 ? auth : undefined;
}

/** The value when it is a plain object, else `undefined`. */
export function objectOrUndefined(value: unknown): Record<string, unknown> | undefined {
  return isPlainObject(value) ? value : undefined;
}
