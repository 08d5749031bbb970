import { setTimeout as sleep } from "node:timers/promises";
import type { McpRtErrorDetails } from "@mcp-rt/config";
import { errorText, firstSettled } from "@mcp-rt/config/util";
import {
  type FetchLike,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type OAuthClientProvider,
  SdkError,
  SdkErrorCode,
  SSEClientTransport,
  SseError,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import type { RemoteClientTransport } from "../client-transport.js";
import { networkErrorOf } from "../oauth/network-error.js";
import { completeByDefault } from "../result-type.js";
import {
  describeHttpFailure,
  httpStatusOf,
  isLostSession,
  lostSessionReason,
  outOfBandError,
  UNREACHABLE_ERRNOS,
} from "./http-error.js";
import { createRemoteFetch, type HttpFailure } from "./remote-fetch.js";

/** Options of {@link createRemoteTransport}. */
export interface RemoteTransportOptions {
  /** `http`: the SDK's Streamable HTTP transport; `sse`: its legacy HTTP+SSE transport. */
  kind: "http" | "sse";
  /** The server's name, for messages. */
  name: string;
  /** The server's endpoint. */
  url: URL;
  /** Headers for every request to the server's origin, and no other. */
  headers?: Record<string, string> | undefined;
  /** Passed to the SDK transport: OAuth tokens, refresh and the authorization flow. */
  authProvider?: OAuthClientProvider | undefined;
  /** Aborts a pending `start()` (the SSE transport waits there for the server's `endpoint` event). */
  signal?: AbortSignal | undefined;
  /** The config file the server came from, for messages. */
  sourcePath?: string | undefined;
  /** On close, how long the `DELETE` that ends a Streamable HTTP session may take. @default 2000 */
  closeTimeoutMs?: number | undefined;
  /** The fetch under the transport's own (headers, same-origin redirects, error capture). @default globalThis.fetch */
  fetch?: FetchLike | undefined;
  /** The most one response body, or one event of a stream, may hold (bytes); a request whose answer is larger fails with `LIMIT_EXCEEDED`. @default 10485760 */
  maxMessageBytes?: number | undefined;
}

// Failures remembered to explain the errors the SDK throws for them.
const FAILURES_KEPT = 8;
// After a network error that does not say whether the server is gone: wait, then ask.
const PROBE_DELAY_MS = 250;
const PROBE_TIMEOUT_MS = 5000;
// Times the event stream is re-opened after it dropped (the SDK's own default), before the server counts as gone.
const STREAM_RETRIES = 2;

/**
 * An SDK Streamable HTTP or SSE client transport with what a connection needs
 * around it: the config's headers on every request to the server (never to
 * another host), errors that name the HTTP status and body, a close that ends
 * the server's session with `DELETE` first, and an `onclose` when the server
 * is gone (a lost session, a dropped SSE stream, an unreachable server) rather
 * than only when the client closes.
 */
// What the Streamable HTTP transport's `send` takes: the SDK's `TransportSendOptions` without explicit `undefined`s.
type StreamableSendOptions = Parameters<StreamableHTTPClientTransport["send"]>[1];

export class RemoteTransport implements RemoteClientTransport {
  /** `http` or `sse`. */
  readonly kind: "http" | "sse";
  /** Called once, when the transport has closed for whatever reason. */
  onclose?: (() => void) | undefined;
  /** Called on out-of-band problems (an event stream that failed, a message that is not JSON-RPC). */
  onerror?: ((error: Error) => void) | undefined;
  /** Called with every JSON-RPC message the server sends. */
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;

  readonly #options: RemoteTransportOptions;
  readonly #inner: StreamableHTTPClientTransport | SSEClientTransport;
  readonly #failures: HttpFailure[] = [];
  readonly #fetch: FetchLike;
  // Aborted on close: ends a liveness probe still in flight.
  readonly #lifetime = new AbortController();
  #probing = false;
  // Set once `initialize` succeeded: from then on a dropped stream or a dead server closes the transport.
  #established = false;
  // The SDK reports some errors twice (where they happen and where they are caught).
  readonly #reported = new WeakSet<Error>();
  #closing: Promise<void> | undefined;
  #closeReported = false;
  #closeReason: string | undefined;
  #closeDetails: McpRtErrorDetails["TRANSPORT_CLOSED"] | undefined;
  #protocolVersion: string | undefined;
  #lastStreamError: string | undefined;
  // The SSE transport's failed POSTs are plain errors: each is paired here with the response it got.
  readonly #postFailures = new WeakMap<Error, HttpFailure>();

  constructor(options: RemoteTransportOptions) {
    this.#options = options;
    this.kind = options.kind;
    const fetch = createRemoteFetch({
      url: options.url,
      headers: options.headers,
      fetch: options.fetch,
      onFailure: (failure) => this.#remember(failure),
      maxMessageBytes: options.maxMessageBytes,
    });
    this.#fetch = fetch;
    const sdkOptions = { fetch, ...(options.authProvider ? { authProvider: options.authProvider } : {}) };
    this.#inner =
      options.kind === "http"
        ? new StreamableHTTPClientTransport(options.url, {
            ...sdkOptions,
            // The limit is kept here, so that giving up is known by state, not by the SDK's error text.
            reconnectionOptions: {
              initialReconnectionDelay: 1000,
              maxReconnectionDelay: 30_000,
              reconnectionDelayGrowFactor: 1.5,
              maxRetries: Number.MAX_SAFE_INTEGER,
            },
            reconnectionScheduler: (reconnect, delay, attempt) =>
              this.#scheduleReconnect(reconnect, delay, attempt),
          })
        : new SSEClientTransport(options.url, sdkOptions);
    this.#inner.onmessage = (message: JSONRPCMessage) =>
      this.onmessage?.(completeByDefault(message, this.#protocolVersion));
    this.#inner.onerror = (error) => this.#onInnerError(error);
    this.#inner.onclose = () => this.#reportClose();
  }

  /**
   * True for Streamable HTTP: one POST (and response stream) per request.
   * v2 reads it to cancel a request on a 2026-07-28 connection by closing
   * that stream, as the spec says, instead of posting `notifications/cancelled`
   * (which a stateless server cannot tie to the request); without it, a
   * wrapping transport like this one got the legacy behaviour.
   */
  get hasPerRequestStream(): boolean {
    return this.#inner instanceof StreamableHTTPClientTransport;
  }

  /** The Streamable HTTP session id the server assigned, once it has. */
  get sessionId(): string | undefined {
    return this.#inner instanceof StreamableHTTPClientTransport ? this.#inner.sessionId : undefined;
  }

  /** The protocol version agreed at `initialize`, once known. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** Why the transport closed on its own (the server lost the session, the stream dropped…), once it has. */
  get closeReason(): string | undefined {
    return this.#closeReason;
  }

  /** Facts about an unexpected close, for the `TRANSPORT_CLOSED` error's `details`. */
  get closeDetails(): McpRtErrorDetails["TRANSPORT_CLOSED"] | undefined {
    return this.#closeDetails;
  }

  /** Called by the SDK client after `initialize`; sent as `MCP-Protocol-Version` from then on. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
    this.#established = true;
    this.#inner.setProtocolVersion(version);
  }

  /** The last HTTP error responses this transport saw (at most 8), oldest first. */
  get httpFailures(): readonly HttpFailure[] {
    return this.#failures;
  }

  /** The HTTP error response behind an error the SDK threw, if there was one. */
  httpFailureOf(error: unknown): HttpFailure | undefined {
    if (error instanceof Error && this.#postFailures.has(error)) return this.#postFailures.get(error);
    const status = httpStatusOf(error);
    if (status === undefined) return undefined;
    return this.#failures.findLast((failure) => failure.status === status);
  }

  /** Starts the SDK transport (for SSE: opens the stream and waits for the `endpoint` event). */
  async start(): Promise<void> {
    const signal = this.#options.signal;
    signal?.throwIfAborted();
    const started = this.#inner.start();
    if (signal) {
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
      });
      started.catch(() => {});
      try {
        await Promise.race([started, aborted]);
      } finally {
        if (onAbort) signal.removeEventListener("abort", onAbort);
      }
    } else {
      await started;
    }
  }

  /** Sends one message (an HTTP POST). Rejects once the transport is closing or closed. */
  send(message: JSONRPCMessage, options?: StreamableSendOptions): Promise<void> {
    if (this.#closing || this.#closeReported) {
      return Promise.reject(new SdkError(SdkErrorCode.NotConnected, "Not connected"));
    }
    const inner = this.#inner;
    if (inner instanceof StreamableHTTPClientTransport) return inner.send(message, options);
    const failuresBefore = this.#failures.length === 0 ? undefined : this.#failures.at(-1);
    return inner.send(message).catch((error: unknown) => {
      // The SSE transport throws a plain error for an HTTP error answer to its POST: pair them.
      const failure = this.#failures.at(-1);
      if (error instanceof Error && failure && failure !== failuresBefore && failure.method === "POST") {
        this.#postFailures.set(error, failure);
      }
      throw error;
    });
  }

  /**
   * Closes: a Streamable HTTP session is ended with `DELETE` first (a 405
   * answer is fine; at most `closeTimeoutMs`), then every open request and
   * stream is aborted. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown(true);
    return this.#closing;
  }

  /** Closes without ending the server's session (used after a failure). */
  terminate(): Promise<void> {
    this.#closing ??= this.#shutdown(false);
    return this.#closing;
  }

  async #shutdown(endSession: boolean): Promise<void> {
    this.#lifetime.abort();
    const inner = this.#inner;
    if (endSession && inner instanceof StreamableHTTPClientTransport && inner.sessionId !== undefined) {
      await firstSettled([inner.terminateSession()], this.#options.closeTimeoutMs ?? 2000);
    }
    await inner.close().catch(() => {});
    this.#reportClose();
  }

  /** The server is gone: record why and close, so that `onclose` tells the connection. */
  #lose(reason: string, details?: McpRtErrorDetails["TRANSPORT_CLOSED"]): void {
    if (this.#closing || this.#closeReported) return;
    this.#closeReason = reason;
    this.#closeDetails = details;
    this.terminate().catch(() => {});
  }

  #onInnerError(error: Error): void {
    // Aborted requests and the session DELETE of a closing transport are not news.
    if (this.#closing || this.#closeReported || this.#reported.has(error)) return;
    this.#reported.add(error);
    const failure = this.httpFailureOf(error);
    if (failure && isLostSession(failure)) {
      this.#lose(lostSessionReason(failure), { status: failure.status, sessionId: failure.sessionId });
      return;
    }
    if (this.#established && error instanceof SseError && failure === undefined) {
      this.#lose(`the SSE stream closed (${errorText(error)})`);
      return;
    }
    const network = networkErrorOf(error);
    if (this.#established && network && UNREACHABLE_ERRNOS.has(network.code)) {
      this.#lose(`the server could not be reached (${network.message})`, { errno: network.code });
      return;
    }
    // A socket cut mid-request ("other side closed") may be a server that just died, or a hiccup.
    if (this.#established && network) this.#probe();
    this.#lastStreamError = failure ? describeHttpFailure(failure) : errorText(error);
    this.onerror?.(
      outOfBandError({ name: this.#options.name, error, failure, sourcePath: this.#options.sourcePath }),
    );
  }

  /**
   * Asks the endpoint whether anything still answers there (a GET, as for
   * the event stream): any HTTP answer means alive, a refused connection
   * means gone, and a 404 for our session means the session is gone.
   */
  #probe(): void {
    if (this.kind !== "http" || this.#probing) return;
    this.#probing = true;
    const signal = AbortSignal.any([
      this.#lifetime.signal,
      AbortSignal.timeout(PROBE_DELAY_MS + PROBE_TIMEOUT_MS),
    ]);
    const headers: Record<string, string> = { accept: "text/event-stream" };
    const sessionId = this.sessionId;
    if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
    if (this.#protocolVersion !== undefined) headers["mcp-protocol-version"] = this.#protocolVersion;
    sleep(PROBE_DELAY_MS, undefined, { signal })
      .then(() => this.#fetch(this.#options.url, { method: "GET", headers, signal }))
      .then(async (response) => {
        await response.body?.cancel();
        const failure = this.#failures.at(-1);
        if (response.status === 404 && failure && isLostSession(failure)) {
          this.#lose(lostSessionReason(failure), { status: failure.status, sessionId: failure.sessionId });
        }
      })
      .catch((error: unknown) => {
        const network = networkErrorOf(error);
        if (network && UNREACHABLE_ERRNOS.has(network.code)) {
          this.#lose(`the server could not be reached (${network.message})`, { errno: network.code });
        }
      })
      .finally(() => {
        this.#probing = false;
      });
  }

  /**
   * The Streamable HTTP transport's scheduler of event stream re-opens: the
   * SDK's delays, and after {@link STREAM_RETRIES} failed attempts the
   * server counts as gone (once the connection is established).
   */
  #scheduleReconnect(reconnect: () => void, delay: number, attempt: number): (() => void) | undefined {
    if (this.#closing || this.#closeReported) return undefined;
    if (attempt >= STREAM_RETRIES) {
      const last = this.#lastStreamError ? `: ${this.#lastStreamError}` : "";
      const reason = `its event stream closed and could not be re-opened${last}`;
      if (this.#established) this.#lose(reason);
      else {
        const { name, sourcePath } = this.#options;
        this.onerror?.(outOfBandError({ name, error: new Error(reason), failure: undefined, sourcePath }));
      }
      return undefined;
    }
    const timer = setTimeout(reconnect, delay);
    return () => clearTimeout(timer);
  }

  #remember(failure: HttpFailure): void {
    this.#failures.push(failure);
    if (this.#failures.length > FAILURES_KEPT) this.#failures.shift();
  }

  #reportClose(): void {
    if (this.#closeReported) return;
    this.#closeReported = true;
    this.onclose?.();
  }
}

/** Creates a {@link RemoteTransport}. */
export function createRemoteTransport(options: RemoteTransportOptions): RemoteTransport {
  return new RemoteTransport(options);
}
