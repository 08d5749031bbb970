import { redactUrl } from "@mcp-rt/config";
import type { FetchLike } from "@modelcontextprotocol/client";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../message-limit.js";
import { isSameOrigin } from "../oauth/same-origin.js";
import { type SignInNeed, signInNeedOf } from "../oauth/sign-in-error.js";
import { boundResponse, requestIdsOf } from "./bounded-body.js";

/** One HTTP response with an error status, as a remote transport saw it. */
export interface HttpFailure {
  /** The request's method: `POST`, `GET`, `DELETE`. */
  method: string;
  /** The URL that answered (query and credentials removed). */
  url: string;
  /** The HTTP status, 400–599. */
  status: number;
  /** The status text, e.g. `Not Found` ("" when the server sent none). */
  statusText: string;
  /** The session id the request carried (`Mcp-Session-Id`), if any. */
  sessionId: string | undefined;
  /** The `WWW-Authenticate` header of a 401 or 403, if any. */
  wwwAuthenticate: string | undefined;
  /** The start of the response body, whitespace collapsed. */
  bodyHead: string;
  /** For a redirect that was not followed (it leaves the origin): where it pointed. */
  location?: string | undefined;
  /** For a 401 or 403 that OAuth could not answer without the user: what sign-in it needs. */
  signIn?: SignInNeed | undefined;
}

/** Options of {@link createRemoteFetch}. */
export interface RemoteFetchOptions {
  /** The server's endpoint; its origin is the only one that receives `headers`. */
  url: URL;
  /** Extra headers for every request to the server's origin (the config's `headers`). */
  headers?: Record<string, string> | undefined;
  /** Called for every response with a status of 400 or more (with its body head read), and for every redirect not followed. */
  onFailure?: ((failure: HttpFailure) => void) | undefined;
  /** The fetch to wrap. @default globalThis.fetch */
  fetch?: FetchLike | undefined;
  /**
   * The most a successful response body from the server's origin may hold, in
   * bytes, or (an event stream) one event of it; what is past it is not read
   * (see `boundResponse`). @default 10485760 (10 MiB)
   */
  maxMessageBytes?: number | undefined;
}

/** Characters of an error body kept for messages. */
export const BODY_HEAD_CHARS = 500;
// Bytes of an error body read at most: the rest is never downloaded.
const BODY_READ_LIMIT = 16 * 1024;
const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Headers the protocol owns: a config must not forge or replace them.
const RESERVED_HEADERS = new Set([
  "mcp-session-id",
  "mcp-protocol-version",
  "last-event-id",
  "host",
  "content-length",
]);

/** A URL as messages show it: no credentials, query or fragment. */
export function displayUrl(url: URL | string): string {
  try {
    const copy = new URL(url);
    copy.username = copy.password = copy.search = copy.hash = "";
    return redactUrl(copy.href);
  } catch {
    return redactUrl(String(url));
  }
}

/**
 * The fetch every remote transport uses. Requests to the server's origin get
 * the config's `headers` (headers the SDK set itself win; the protocol's own —
 * `Mcp-Session-Id`, `MCP-Protocol-Version`, `Last-Event-ID` — are never taken
 * from the config) and never follow a redirect to another origin, so the
 * headers cannot leak to another host; a redirect within the origin is
 * followed (307/308 keep the method and body; others only for GET). Requests
 * to other origins (OAuth metadata, the authorization server) get none of the
 * config's headers. Error responses and unfollowed redirects are reported to
 * `onFailure` with the head of their body. Other responses from the origin are
 * read within `maxMessageBytes` as they stream: a larger body (or event) is
 * cut off, and the requests of the POST fail with `LIMIT_EXCEEDED`.
 */
export function createRemoteFetch(options: RemoteFetchOptions): FetchLike {
  const base = options.fetch ?? ((url, init) => fetch(url, init));
  const limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const extra = Object.entries(options.headers ?? {}).filter(
    ([name]) => !RESERVED_HEADERS.has(name.toLowerCase()),
  );

  return async (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    if (!isSameOrigin(options.url, target)) return base(input, init);

    const headers = new Headers(init?.headers);
    for (const [name, value] of extra) {
      if (!headers.has(name)) headers.set(name, value);
    }
    const method = (init?.method ?? "GET").toUpperCase();
    const request: RequestInit = {
      ...init,
      headers,
      redirect: init?.redirect === "error" ? "error" : "manual",
    };
    let url = target;
    let response = await base(url, request);
    // Followed here even when the caller asked for "manual": the SDK only does so to follow
    // same-origin redirects itself, and what is left is a redirect nobody may follow.
    for (let hops = 0; request.redirect === "manual" && hops < MAX_REDIRECTS; hops++) {
      const next = sameOriginRedirect(response, url, method);
      if (!next) break;
      await response.body?.cancel();
      url = next;
      response = await base(url, request);
    }
    const redirect = REDIRECT_STATUSES.has(response.status) ? response.headers.get("location") : null;
    if (response.status < 400 && redirect === null) {
      return boundResponse(response, { limit, requestIds: requestIdsOf(init?.body) });
    }
    if (!options.onFailure) return response;
    return reportFailure(response, { method, url, headers, redirect }, options.onFailure);
  };
}

/** Where `response` redirects to, when that is within `from`'s origin and keeps the method; else undefined. */
function sameOriginRedirect(response: Response, from: URL, method: string): URL | undefined {
  if (!REDIRECT_STATUSES.has(response.status)) return undefined;
  const location = response.headers.get("location");
  if (!location) return undefined;
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    return undefined;
  }
  if (!isSameOrigin(from, to) || to.username !== from.username || to.password !== from.password)
    return undefined;
  // 301, 302 and 303 turn a request with a body into a GET; only 307 and 308 keep it.
  const keepsMethod =
    response.status === 307 || response.status === 308 || method === "GET" || method === "HEAD";
  return keepsMethod ? to : undefined;
}

async function reportFailure(
  response: Response,
  request: { method: string; url: URL; headers: Headers; redirect: string | null },
  onFailure: (failure: HttpFailure) => void,
): Promise<Response> {
  const body = await readHead(response);
  const text = new TextDecoder().decode(body);
  const bodyHead = text.replace(/\s+/g, " ").trim();
  try {
    onFailure({
      method: request.method,
      url: displayUrl(request.url),
      status: response.status,
      statusText: response.statusText,
      sessionId: request.headers.get("mcp-session-id") ?? undefined,
      wwwAuthenticate: response.headers.get("www-authenticate") ?? undefined,
      bodyHead: bodyHead.length > BODY_HEAD_CHARS ? `${bodyHead.slice(0, BODY_HEAD_CHARS - 1)}…` : bodyHead,
      ...(request.redirect === null ? {} : { location: resolveLocation(request.redirect, request.url) }),
      ...(signInNeedOf(response) ? { signIn: signInNeedOf(response) } : {}),
    });
  } catch {
    // A throwing listener must not turn an HTTP answer into a network error.
  }
  // The body was consumed: hand the SDK an equivalent response with what was read.
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** A `Location` header as an absolute URL for messages (as given when it does not parse). */
function resolveLocation(location: string, base: URL): string {
  try {
    return displayUrl(new URL(location, base));
  } catch {
    return location;
  }
}

/** Reads up to BODY_READ_LIMIT bytes of a body and cancels the rest. */
async function readHead(response: Response): Promise<Uint8Array<ArrayBuffer>> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < BODY_READ_LIMIT) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body cut short still has a head worth showing.
  } finally {
    reader.cancel().catch(() => {});
  }
  const out = new Uint8Array(Math.min(size, BODY_READ_LIMIT));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, out.length - offset);
    out.set(part, offset);
    offset += part.length;
    if (offset >= out.length) break;
  }
  return out;
}
