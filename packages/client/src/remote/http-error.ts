import { type HttpAnswerFacts, McpRtError } from "@mcp-rt/config";
import { errorText, inConfig } from "@mcp-rt/config/util";
import {
  InsufficientScopeError,
  SdkHttpError,
  SseError,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { signInRequiredError } from "../oauth/sign-in-error.js";
import type { HttpFailure } from "./remote-fetch.js";

/**
 * The HTTP status an SDK transport error reports, by its class: `SdkHttpError`
 * carries it in `status`, the SSE transport's `SseError` in `code`,
 * `UnauthorizedError` means 401, `InsufficientScopeError` (a challenge for
 * more scope, with no OAuth provider to step up) 403. Errors of other kinds
 * report none (the SSE transport's failed POSTs are plain errors:
 * `RemoteTransport` pairs them with the response it saw instead).
 */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof UnauthorizedError) return 401;
  if (error instanceof InsufficientScopeError) return 403;
  const status =
    error instanceof SdkHttpError ? error.status : error instanceof SseError ? error.code : undefined;
  return typeof status === "number" && status >= 100 && status <= 599 ? status : undefined;
}

/** System errors that mean nothing answers at the server's address any more. */
export const UNREACHABLE_ERRNOS: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** "POST http://host/mcp answered HTTP 500 Internal Server Error: <body head>". */
export function describeHttpFailure(failure: HttpFailure): string {
  const status = `HTTP ${failure.status}${failure.statusText ? ` ${failure.statusText}` : ""}`;
  if (failure.location !== undefined)
    return `${failure.method} ${failure.url} answered ${status} to ${failure.location}`;
  const body = failure.bodyHead ? `: ${failure.bodyHead}` : "";
  return `${failure.method} ${failure.url} answered ${status}${body}`;
}

/** True for a 404 to a request that carried a session id: the server no longer has that session. */
export function isLostSession(failure: HttpFailure): failure is HttpFailure & { sessionId: string } {
  return failure.status === 404 && failure.sessionId !== undefined;
}

/** Why a connection whose session the server lost is closed, for messages. */
export function lostSessionReason(failure: HttpFailure): string {
  return `the server no longer knows session ${failure.sessionId} (${describeHttpFailure(failure)}); it restarted or expired the session — reconnect to start a new one`;
}

/** What an HTTP failure error is made from. */
export interface HttpFailureErrorInit {
  /** The server's name. */
  name: string;
  failure: HttpFailure;
  /** How the message starts: `Connection to MCP server "x" failed`, `The call of tool "y" to MCP server "x" failed`. */
  lead: string;
  sourcePath: string | undefined;
  cause?: unknown;
  /** Whether a 404/405 suggests checking `url` (true for what the client itself sent to the endpoint). @default true */
  urlHint?: boolean;
}

/**
 * The `McpRtError` for an HTTP error status: `AUTH_REQUIRED` for 401 and 403
 * (with the `WWW-Authenticate` header in `details`), `SIGN_IN_REQUIRED` when
 * OAuth could not answer it without a sign-in, `TRANSPORT_CLOSED` for a
 * 404 to a request that carried a session id (the server lost the session),
 * `HTTP_ERROR` for anything else, a redirect to another origin included
 * (`details.location`). `details` holds the status, status text, method, URL
 * and body head.
 */
export function httpFailureError(init: HttpFailureErrorInit): McpRtError {
  const { name, failure, lead } = init;
  const where = inConfig(init.sourcePath);
  const details: HttpAnswerFacts = {
    status: failure.status,
    statusText: failure.statusText,
    method: failure.method,
    url: failure.url,
    body: failure.bodyHead,
  };
  const base = { server: name, details, ...(init.cause === undefined ? {} : { cause: init.cause }) };

  if ((failure.status === 401 || failure.status === 403) && failure.signIn) {
    return signInRequiredError({ name, need: failure.signIn, lead, details, cause: init.cause });
  }
  if (failure.status === 401 || failure.status === 403) {
    if (failure.wwwAuthenticate !== undefined) details.wwwAuthenticate = failure.wwwAuthenticate;
    const why = failure.status === 401 ? "authorization required" : "the credentials were refused";
    return new McpRtError(
      "AUTH_REQUIRED",
      `${lead}: ${why} (${describeHttpFailure(failure)}); set the credentials in "headers" or "auth" ${where}`,
      base,
    );
  }
  if (isLostSession(failure)) {
    details.sessionId = failure.sessionId;
    return new McpRtError("TRANSPORT_CLOSED", `${lead}: ${lostSessionReason(failure)}`, base);
  }
  if (failure.location !== undefined) {
    details.location = failure.location;
    return new McpRtError(
      "HTTP_ERROR",
      `${lead}: ${describeHttpFailure(failure)}, which is not followed because it leaves the server's origin (headers must not leak to another host); put the new address in "url" ${where}`,
      base,
    );
  }
  let hint = "";
  if (init.urlHint !== false && (failure.status === 404 || failure.status === 405))
    hint = ` (check "url" ${where})`;
  // Nothing in the config to change: the server (or a proxy in front of it) failed.
  else if (failure.status >= 500)
    hint = " (a failure on the server's side: see its logs, or try again later)";
  return new McpRtError("HTTP_ERROR", `${lead}: ${describeHttpFailure(failure)}${hint}`, base);
}

/** What {@link outOfBandError} is made from. */
export interface OutOfBandErrorInit {
  /** The server's name. */
  name: string;
  /** What the SDK transport reported. */
  error: Error;
  /** The HTTP error response behind it, if there was one. */
  failure: HttpFailure | undefined;
  sourcePath: string | undefined;
}

/**
 * What a remote transport reports through `onError` for a problem outside any
 * request (the event stream, a stray message): the HTTP failure without a
 * `url` hint, since it is not something the config got wrong; a message that
 * is not JSON-RPC as is (the server's fault); anything else as `HTTP_ERROR`.
 */
export function outOfBandError(init: OutOfBandErrorInit): Error {
  const { name, error, failure, sourcePath } = init;
  if (failure) {
    return httpFailureError({
      name,
      failure,
      lead: `MCP server "${name}"`,
      sourcePath,
      cause: error,
      urlHint: false,
    });
  }
  if (error.name === "ZodError" || error instanceof SyntaxError) return error;
  // A sign-in that failed (or was aborted) inside a request says so itself.
  if (McpRtError.isInstance(error)) return error;
  return new McpRtError("HTTP_ERROR", `MCP server "${name}": ${errorText(error)}`, {
    server: name,
    cause: error,
  });
}
