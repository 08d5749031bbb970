import { timerMs } from "@mcp-rt/config/util";
import { DEFAULT_CONNECT_TIMEOUT_MS } from "./connect-timeout.js";
import type { MCPServerConnection } from "./connection.js";
import { notConnectedError, toRequestError } from "./request-error.js";
import { getConnectionInternals } from "./server-connection.js";
import { checkTimeOption } from "./time-limit.js";

/** Options of one request to a server (`readResource`, `getPrompt`, the list calls, …). */
export interface ServerRequestOptions {
  /** Aborts the request: the server is told (`notifications/cancelled`) and the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Limit in ms. @default config.timeout ?? 30000 */
  timeout?: number;
}

/** What {@link openRequest} takes besides the caller's options: facts that explain a failure. */
interface RequestFacts {
  /** The URI a `resources/read` asked for: a not-found answer is then told as such. */
  resourceUri?: string;
  /** How long the connect before it took, in ms: a timeout message then tells both. */
  connectMs?: number;
}

/** One request to a server (of one or more SDK requests) under one deadline. */
export interface RequestScope {
  readonly internals: ReturnType<typeof getConnectionInternals>;
  /** The caller's signal and the deadline together. */
  readonly signal: AbortSignal;
  /** What is left of the time limit, in ms (at least 1), for the next SDK request. */
  remainingMs(): number;
  /** What a failure of an SDK request becomes: an `McpRtError` (or an `AbortError`) naming the request. */
  fail(error: unknown): Error;
}

/**
 * Opens a request with the package's rules: a closed connection fails at
 * once, and the time limit is the config's `timeout` unless given, for all
 * the SDK requests the scope runs together (the pages of a list).
 */
export function openRequest(
  connection: MCPServerConnection,
  what: string,
  options: ServerRequestOptions & RequestFacts = {},
): RequestScope {
  const internals = getConnectionInternals(connection);
  if (connection.closed) throw notConnectedError(connection, internals, what);
  checkTimeOption("timeout", options.timeout);
  const timeoutMs = options.timeout ?? connection.config.timeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timerMs(timeoutMs));
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const started = Date.now();
  return {
    internals,
    signal,
    remainingMs: () => timerMs(Math.max(1, timeoutMs - (Date.now() - started))),
    fail: (error) =>
      toRequestError({
        connection,
        internals,
        error,
        what,
        timeoutField: "timeout",
        timeoutMs,
        ...(options.connectMs ? { connectMs: options.connectMs } : {}),
        signal: options.signal,
        deadline,
        ...(options.resourceUri === undefined ? {} : { resourceUri: options.resourceUri }),
      }),
  };
}

/** What {@link sendRequest} runs: one SDK request under a signal and a time limit. */
export type RequestRun<T> = (
  client: ReturnType<typeof getConnectionInternals>["client"],
  options: { signal: AbortSignal; timeout: number },
) => Promise<T>;

/**
 * Runs one SDK request against a connection with the package's rules: a
 * closed connection fails at once, the time limit is the config's `timeout`
 * unless given, and a failure becomes an `McpRtError` (or an `AbortError`) naming `what`.
 */
export async function sendRequest<T>(
  connection: MCPServerConnection,
  what: string,
  run: RequestRun<T>,
  options: ServerRequestOptions & RequestFacts = {},
): Promise<T> {
  const scope = openRequest(connection, what, options);
  try {
    return await run(scope.internals.client, { signal: scope.signal, timeout: scope.remainingMs() });
  } catch (error) {
    throw scope.fail(error);
  }
}
