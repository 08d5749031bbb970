import type { ElicitationHandler, MCPEraVerdict, MCPServerConnection, OAuthOptions } from "@mcp-rt/client";
import { DEFAULT_CONNECT_TIMEOUT_MS, isSignInRequired, localUser } from "@mcp-rt/client/light";
import {
  type AuthStorage,
  type Logger,
  type MCPServerConfig,
  type MCPToolDefinition,
  McpRtError,
} from "@mcp-rt/config";
import { errorMessage, monotonicMs, settleWithin } from "@mcp-rt/config/util";
import { abortable } from "../abortable.js";
import { client, loadClient } from "../client-module.js";
import { type Attempt, calledOffError } from "./attempt.js";
import { type AttemptIdentity, resolveIdentity } from "./attempt-identity.js";
import { freshCachedList } from "./cached-list.js";
import { listServerContent, type ServerContent } from "./server-content.js";
import type { contentListOptions, toolListOptions } from "./server-limits.js";

/**
 * How long a server's tools wait, once listed, for its resources and prompts;
 * later lists are applied when they land (`resources:changed`, `prompts:changed`).
 */
const CONTENT_GRACE_MS = 1000;

/** How connections are made for every server of a manager: credentials and the handlers a connection needs. */
export interface ConnectSettings {
  /** The project folder: where stdio servers start, part of cache keys. */
  cwd: string;
  /** Where API keys and sign-ins live, when the manager has a store. */
  authStorage: AuthStorage | undefined;
  /** Who the agent acts for: part of every server's auth context (`MCPManagerOptions.user`). */
  user: string;
  /** See `MCPManagerOptions.maxMessageBytes`. */
  maxMessageBytes: number;
  onElicitation: ElicitationHandler | undefined;
  openUrl: OAuthOptions["openUrl"] | undefined;
  signInTimeoutMs: number | undefined;
  logger: Logger | undefined;
}

/** Failures that say nothing of the server's era: a sign-in, a time limit, a stop, a message too large. */
const NOT_ABOUT_THE_ERA = new Set([
  "AUTH_REQUIRED",
  "SIGN_IN_REQUIRED",
  "REQUEST_TIMEOUT",
  "CONNECT_TIMEOUT",
  "ABORTED",
  "NOT_CONNECTED",
  "LIMIT_EXCEEDED",
]);

/**
 * True when the first list on a connection that adopted a stored modern
 * verdict failed the way a server that no longer speaks 2026-07-28 fails:
 * any failure but a sign-in, a time limit or a stop (a JSON-RPC error, a
 * close, an HTTP 400/404/405 of a stateful legacy server that wants
 * `initialize` first).
 */
export function isStaleModernVerdict(
  connection: { era: string; eraDecision: { how: string } },
  error: unknown,
): boolean {
  if (connection.era !== "modern" || connection.eraDecision.how !== "stored") return false;
  return McpRtError.isInstance(error) && !NOT_ABOUT_THE_ERA.has(error.code);
}

/** What one attempt works with beside its {@link Attempt}. */
export interface ConnectAndListOptions {
  settings: ConnectSettings;
  /** The config file the server came from, for error messages. */
  sourcePath: string | undefined;
  /**
   * The era to connect in without a probe (a stored verdict), asked once the
   * attempt's identity is known and its cache read answered; a stale modern
   * one is asked again, once.
   */
  prior: () => MCPEraVerdict | undefined;
  /** The limits of the tool list and where a breach is logged. */
  toolList: ReturnType<typeof toolListOptions>;
  /** The limits of the resource and prompt lists. */
  contentList: ReturnType<typeof contentListOptions>;
}

/**
 * The handshake succeeded on `connection` (again, when a stale verdict was
 * asked anew): the caller watches it from now on, before the attempt lists.
 * `resolvedFingerprint` is the fingerprint of what was handed to the server.
 */
export interface Handshake {
  connection: MCPServerConnection;
  resolvedFingerprint: string;
}

/** What an attempt came to. The connection of `listed` is the caller's: commit it or close it. */
export type AttemptResult =
  | {
      kind: "listed";
      connection: MCPServerConnection;
      /** The server's full, unfiltered tool list. */
      tools: MCPToolDefinition[];
      /** Its resources and prompts, or, past a short grace, the promise of them. */
      content: Partial<ServerContent> | Promise<Partial<ServerContent>>;
      /**
       * What failed of those lists (so far: late ones add to it), for the
       * caller to report once it keeps the connection; an attempt given up
       * says nothing.
       */
      contentFailures: readonly string[];
    }
  | { kind: "failed"; error: McpRtError }
  | { kind: "needs-sign-in"; error: McpRtError };

/** What runs one attempt: {@link connectAndList}, or, in a test, scripted results. */
export type ConnectAndList = (
  attempt: Attempt,
  options: ConnectAndListOptions,
) => AsyncGenerator<Handshake, AttemptResult, void>;

/**
 * One attempt: resolve the config, connect (with the stored era, or a
 * probe), list the tools, and the resources and prompts beside them. It
 * writes no state: it yields each {@link Handshake} (it goes on listing once
 * the caller asks for the next step), returns what it came to, and closes
 * whatever it opened unless it returns it. An attempt that was called off
 * fails with the abort's reason.
 */
export async function* connectAndList(
  attempt: Attempt,
  options: ConnectAndListOptions,
): AsyncGenerator<Handshake, AttemptResult, void> {
  const { name } = attempt;
  const { signal } = attempt.controller;
  const { settings } = options;
  const timeoutMs = attempt.config.timeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
  let connection: MCPServerConnection | undefined;
  let contentFailures: string[] = [];
  const once = async function* (identity: AttemptIdentity, prior: MCPEraVerdict | undefined) {
    // This connection's own: a connection given up for a stale verdict takes its failures with it.
    const failures: string[] = [];
    contentFailures = failures;
    const opened = await openConnection(name, attempt.config, {
      cwd: settings.cwd,
      signal,
      identity,
      user: settings.user,
      sourcePath: options.sourcePath,
      maxMessageBytes: settings.maxMessageBytes,
      oauth: oauthFor(attempt, settings, identity),
      onElicitation: settings.onElicitation,
      prior,
    });
    connection = opened.connection;
    signal.throwIfAborted();
    // Watched from the handshake on, so that a tool change announced during the first list is not lost.
    yield { connection, resolvedFingerprint: opened.resolvedFingerprint };
    // Its time counts from its launch, not from when it queued for a start slot.
    const connectMs = Math.round(monotonicMs() - (attempt.beganAt ?? attempt.startedAt));
    const remaining = Math.max(1, timeoutMs - connectMs);
    // Resources and prompts are listed beside the tools; a failure there never fails the server
    // (listServerContent never rejects), and past a short grace the tools do not wait for them.
    const contentListing = listServerContent(connection, {
      ...options.contentList,
      signal,
      timeout: remaining,
      onFailure: (message) => failures.push(message),
    });
    const fresh = freshCachedList({ connection, entry: attempt.cachedEntry, readAs: identity.authContext });
    const tools =
      fresh ??
      (await client().listTools(connection, {
        ...options.toolList,
        signal,
        timeout: remaining,
        connectMs,
      }));
    return { connection, tools, contentListing };
  };
  try {
    let listed: {
      connection: MCPServerConnection;
      tools: MCPToolDefinition[];
      contentListing: Promise<Partial<ServerContent>>;
    };
    const identity = await abortable(attempt.identityAndRead(), signal);
    try {
      listed = yield* once(identity, options.prior());
    } catch (error) {
      const stale = connection;
      if (!stale || signal.aborted || !isStaleModernVerdict(stale, error)) throw error;
      settings.logger?.debug(
        `MCP server "${name}" no longer speaks ${stale.protocolVersion} as stored; asking it again`,
      );
      connection = undefined;
      await client()
        .closeConnection(stale)
        .catch(() => {});
      listed = yield* once(identity, undefined);
    }
    const content = await settleWithin(() => listed.contentListing, CONTENT_GRACE_MS);
    signal.throwIfAborted();
    return {
      kind: "listed",
      connection: listed.connection,
      tools: listed.tools,
      content: content.status === "ok" ? content.value : listed.contentListing,
      contentFailures,
    };
  } catch (error) {
    // Nothing started for an attempt that failed or was called off may outlive it.
    if (connection)
      await client()
        .closeConnection(connection)
        .catch(() => {});
    const thrown = startError(name, error, signal, connection);
    const failure = McpRtError.isInstance(thrown) ? thrown : calledOffError(name);
    return { kind: isSignInRequired(failure) ? "needs-sign-in" : "failed", error: failure };
  }
}

/** Options of {@link openConnection}. */
export interface OpenConnectionOptions {
  /** The agent's folder: where stdio servers start. */
  cwd: string;
  /** Stops the attempt: the promise rejects with `signal.reason`, and a connection made meanwhile is closed. */
  signal: AbortSignal;
  /**
   * What the server is started with and as, when the caller resolved it
   * already (an attempt does, before the spawn); else it is resolved here
   * from `authStorage` (API keys) and `user`.
   */
  identity?: AttemptIdentity | undefined;
  /** Secrets for `auth: { type: "apikey" }`, when `identity` is not given. */
  authStorage?: AuthStorage | undefined;
  /** Who the agent acts for (`MCPManagerOptions.user`). @default the OS user, host and home folder */
  user?: string | undefined;
  /** The config file, for error messages. */
  sourcePath?: string | undefined;
  /** See `MCPManagerOptions.maxMessageBytes`. @default 10485760 */
  maxMessageBytes?: number | undefined;
  /** OAuth for remote servers: where sign-ins live, and whether a browser sign-in may run. */
  oauth?: OAuthOptions | undefined;
  /** Answers the server's elicitations; see `MCPManagerOptions.onElicitation`. */
  onElicitation?: ElicitationHandler | undefined;
  /** The era an earlier connection found: connect in it without a probe. */
  prior?: MCPEraVerdict | undefined;
}

/** A connection {@link openConnection} made, and the fingerprint of what it handed the server. */
export interface OpenedConnection {
  connection: MCPServerConnection;
  /**
   * The fingerprint of the resolved config (env, args, headers after `!cmd`
   * values and API keys; the values themselves are not kept): a reload
   * compares it to see whether those values changed.
   */
  resolvedFingerprint: string;
}

/**
 * Connects with the resolved config (`options.identity`, else its `!cmd`
 * values and API keys are resolved here); the connection keeps the
 * unresolved one (stable cache keys, no secret kept beyond the handshake).
 */
export async function openConnection(
  name: string,
  config: MCPServerConfig,
  options: OpenConnectionOptions,
): Promise<OpenedConnection> {
  const { signal, cwd } = options;
  const { resolved, resolvedFingerprint } =
    options.identity ??
    (await abortable(
      resolveIdentity({
        name,
        config,
        cwd,
        authStorage: options.authStorage,
        user: options.user ?? localUser(),
      }),
      signal,
    ));
  const { connectToServer } = await abortable(loadClient(), signal);
  const connection = await connectToServer({
    name,
    config: resolved,
    signal,
    cwd,
    unresolvedConfig: config,
    ...(options.user === undefined ? {} : { user: options.user }),
    ...(options.sourcePath ? { sourcePath: options.sourcePath } : {}),
    ...(options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes }),
    ...(options.oauth ? { oauth: options.oauth } : {}),
    ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
    ...(options.prior ? { prior: options.prior } : {}),
  });
  return { connection, resolvedFingerprint };
}

/**
 * What an attempt that threw `error` failed with: the abort's reason when it
 * was called off, an `McpRtError` as it is, anything else as `INIT_FAILED`
 * with the server's last stderr lines.
 */
export function startError(
  name: string,
  error: unknown,
  signal: AbortSignal,
  connection: MCPServerConnection | undefined,
): unknown {
  if (signal.aborted) return signal.reason;
  if (McpRtError.isInstance(error)) return error;
  const tail = connection?.stderrTail().trim();
  return new McpRtError("INIT_FAILED", `MCP server "${name}" failed to start: ${errorMessage(error)}`, {
    server: name,
    cause: error,
    ...(tail ? { stderrTail: tail } : {}),
  });
}

/** OAuth for an attempt's connection: only with an auth store; a browser sign-in only for `login`. */
function oauthFor(
  attempt: Attempt,
  settings: ConnectSettings,
  identity: AttemptIdentity,
): OAuthOptions | undefined {
  const { openUrl, signInTimeoutMs } = settings;
  // The identity's storage answers the sign-in it already read from memory.
  const authStorage = identity.authStorage;
  if (!authStorage) return undefined;
  return {
    storage: authStorage,
    // A sign-in is the user's `login`; a model's tool call never opens a browser.
    interactive: attempt.interactive ? "connect" : false,
    signal: attempt.controller.signal,
    ...(openUrl ? { openUrl } : {}),
    ...(signInTimeoutMs === undefined ? {} : { signInTimeoutMs }),
  };
}
