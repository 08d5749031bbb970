import type { MCPToolCacheEra } from "@mcp-rt/cache";
import type { ElicitationHandler, MCPEraVerdict, MCPServerConnection, OAuthOptions } from "@mcp-rt/client";
import { DEFAULT_CONNECT_TIMEOUT_MS, isSignInRequired } from "@mcp-rt/client/light";
import { type AuthStorage, type Logger, type MCPToolDefinition, McpRtError } from "@mcp-rt/config";
import { monotonicMs, settleWithin } from "@mcp-rt/config/util";
import { client } from "../client-module.js";
import type { Attempt } from "./attempt.js";
import { openConnection, startError } from "./open-connection.js";
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
  /** See `MCPManagerOptions.maxMessageBytes`. */
  maxMessageBytes: number;
  onElicitation: ElicitationHandler | undefined;
  openUrl: OAuthOptions["openUrl"] | undefined;
  signInTimeoutMs: number | undefined;
  logger: Logger | undefined;
}

/**
 * How long a stored legacy verdict is passed on: past a day the server is
 * asked again (it may have been upgraded to 2026-07-28), on the process
 * that serves it. A stale modern verdict fails loudly instead, and is
 * replaced then.
 */
export const LEGACY_VERDICT_TTL_MS: number = 24 * 60 * 60 * 1000;

/** The stored verdict to connect with (no probe), or undefined to ask the server. */
export function verdictToPass(
  stored: MCPEraVerdict | MCPToolCacheEra | undefined,
  now: number = Date.now(),
): MCPEraVerdict | undefined {
  if (!stored) return undefined;
  if (stored.era === "legacy" && now - stored.decidedAt > LEGACY_VERDICT_TTL_MS) return undefined;
  return stored;
}

/**
 * True when the first list on a connection that adopted a stored modern
 * verdict failed the way a server that no longer speaks 2026-07-28 fails:
 * it answered with a JSON-RPC error or closed the connection.
 */
export function isStaleModernVerdict(
  connection: { era: string; eraDecision: { how: string } },
  error: unknown,
): boolean {
  if (connection.era !== "modern" || connection.eraDecision.how !== "stored") return false;
  return (
    McpRtError.isInstance(error) && (error.code === "PROTOCOL_ERROR" || error.code === "TRANSPORT_CLOSED")
  );
}

/** What one attempt works with beside its {@link Attempt}. */
export interface ConnectAndListOptions {
  settings: ConnectSettings;
  /** The config file the server came from, for error messages. */
  sourcePath: string | undefined;
  /** The era to connect in without a probe (a stored verdict); a stale modern one is asked again, once. */
  prior: MCPEraVerdict | undefined;
  /** The limits of the tool list and where a breach is logged. */
  toolList: ReturnType<typeof toolListOptions>;
  /** The limits of the resource and prompt lists. */
  contentList: ReturnType<typeof contentListOptions>;
  /**
   * The handshake succeeded on `connection` (again, when a stale verdict was
   * asked anew). `resolvedFingerprint` is the fingerprint of what was handed
   * to the server. Returns what stops following that connection, called when
   * the attempt gives it up.
   */
  onHandshake(connection: MCPServerConnection, resolvedFingerprint: string): () => void;
  /**
   * The cached list the new connection may take as live instead of listing
   * (a fresh `ttlMs`, see `cached-list.ts`), or `undefined` to list.
   */
  freshList?(connection: MCPServerConnection): Promise<MCPToolDefinition[] | undefined>;
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
    }
  | { kind: "failed"; error: McpRtError }
  | { kind: "needs-sign-in"; error: McpRtError };

/**
 * One attempt: resolve the config, connect (with the stored era, or a
 * probe), list the tools, and the resources and prompts beside them. It
 * writes no state: it returns what it came to, and closes whatever it
 * opened unless it returns it. An attempt that was called off fails with
 * the abort's reason.
 */
export async function connectAndList(
  attempt: Attempt,
  options: ConnectAndListOptions,
): Promise<AttemptResult> {
  const { name } = attempt;
  const { signal } = attempt.controller;
  const { settings } = options;
  const timeoutMs = attempt.config.timeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
  let connection: MCPServerConnection | undefined;
  let unwatch: (() => void) | undefined;
  const once = async (prior: MCPEraVerdict | undefined) => {
    const opened = await openConnection(name, attempt.config, {
      cwd: settings.cwd,
      signal,
      authStorage: settings.authStorage,
      sourcePath: options.sourcePath,
      maxMessageBytes: settings.maxMessageBytes,
      oauth: oauthFor(attempt, settings),
      onElicitation: settings.onElicitation,
      prior,
    });
    connection = opened.connection;
    signal.throwIfAborted();
    // Watched from the handshake on, so that a tool change announced during the first list is not lost.
    unwatch = options.onHandshake(connection, opened.resolvedFingerprint);
    // Its time counts from its launch, not from when it queued for a start slot.
    const connectMs = Math.round(monotonicMs() - (attempt.beganAt ?? attempt.startedAt));
    const remaining = Math.max(1, timeoutMs - connectMs);
    // Resources and prompts are listed beside the tools; a failure there never fails the server
    // (listServerContent never rejects), and past a short grace the tools do not wait for them.
    const contentListing = listServerContent(connection, {
      ...options.contentList,
      signal,
      timeout: remaining,
    });
    const tools =
      (await options.freshList?.(connection)) ??
      (await client().listTools(connection, {
        ...options.toolList,
        signal,
        timeout: remaining,
        connectMs,
      }));
    return { connection, tools, contentListing };
  };
  try {
    let listed: Awaited<ReturnType<typeof once>>;
    try {
      listed = await once(options.prior);
    } catch (error) {
      const stale = connection;
      if (!stale || signal.aborted || !isStaleModernVerdict(stale, error)) throw error;
      settings.logger?.debug(
        `MCP server "${name}" no longer speaks ${stale.protocolVersion} as stored; asking it again`,
      );
      unwatch?.();
      connection = undefined;
      await client()
        .closeConnection(stale)
        .catch(() => {});
      listed = await once(undefined);
    }
    const content = await settleWithin(() => listed.contentListing, CONTENT_GRACE_MS);
    signal.throwIfAborted();
    return {
      kind: "listed",
      connection: listed.connection,
      tools: listed.tools,
      content: content.status === "ok" ? content.value : listed.contentListing,
    };
  } catch (error) {
    // Nothing started for an attempt that failed or was called off may outlive it.
    unwatch?.();
    if (connection)
      await client()
        .closeConnection(connection)
        .catch(() => {});
    const thrown = startError(name, error, signal, connection);
    const failure = McpRtError.isInstance(thrown) ? thrown : calledOffError(name);
    return { kind: isSignInRequired(failure) ? "needs-sign-in" : "failed", error: failure };
  }
}

/** OAuth for an attempt's connection: only with an auth store; a browser sign-in only for `login`. */
function oauthFor(attempt: Attempt, settings: ConnectSettings): OAuthOptions | undefined {
  const { authStorage, openUrl, signInTimeoutMs } = settings;
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

/** What an attempt of a server that was stopped while it connected fails with. */
export function calledOffError(name: string): McpRtError {
  return new McpRtError("NOT_CONNECTED", `MCP server "${name}" was disconnected while it was connecting`, {
    server: name,
  });
}
