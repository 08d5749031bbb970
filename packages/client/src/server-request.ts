import { DEFAULT_CONNECT_TIMEOUT_MS } from "./connect-timeout.js";
import type { MCPServerConnection } from "./connection.js";
import { getConnectionInternals } from "./connection.js";
import { notConnectedError, toRequestError } from "./request-error.js";
import { checkTimeOption, timerMs } from "./time-limit.js";

/** Options of one request to a server (`readResource`, `getPrompt`, the list calls, …). */
export interface ServerRequestOptions {
  /** Aborts the request: the server is told (`notifications/cancelled`) and the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Limit in ms. @default config.timeout ?? 30000 */
  timeout?: number;
}

/** What {@link sendRequest} takes besides the caller's options: facts that explain a failure. */
interface RequestFacts {
  /** The URI a `resources/read` asked for: a not-found answer is then told as such. */
  resourceUri?: string;
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
  const internals = getConnectionInternals(connection);
  if (connection.closed) throw notConnectedError(connection, internals, what);
  checkTimeOption("timeout", options.timeout);
  const timeoutMs = options.timeout ?? connection.config.timeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timerMs(timeoutMs));
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    return await run(internals.client, { signal, timeout: timerMs(timeoutMs) });
  } catch (error) {
    throw toRequestError({
      connection,
      internals,
      error,
      what,
      timeoutField: "timeout",
      timeoutMs,
      signal: options.signal,
      deadline,
      ...(options.resourceUri === undefined ? {} : { resourceUri: options.resourceUri }),
    });
  }
}
