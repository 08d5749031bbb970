import type { Transport } from "@modelcontextprotocol/client";
import type { HttpFailure } from "./remote-fetch.js";
import type { ProcessExit } from "./stdio-transport.js";

/**
 * What a connection needs from its transport besides the SDK's `Transport`:
 * facts for error messages, and a close that does not wait politely.
 */
export interface ClientTransport extends Transport {
  /** How the server is reached. */
  readonly kind: "stdio" | "http" | "sse";
  /** The server's process id (stdio only). */
  readonly pid?: number | undefined;
  /** How the server process ended, once it has (stdio only). */
  readonly exit?: ProcessExit | undefined;
  /** The protocol version agreed at `initialize`. */
  readonly protocolVersion?: string | undefined;
  /** Why the transport closed on its own (a lost session, a dropped stream, a message too large, a broken stdin), once it has. */
  readonly closeReason?: string | undefined;
  /** Set when a stdio transport closed because the server sent a message past `maxMessageBytes`: what happened. */
  readonly limitBreach?: string | undefined;
  /** Facts about that close (HTTP status, session id, errno), for error `details`. */
  readonly closeDetails?: Record<string, unknown> | undefined;
  /** The HTTP error response behind an error the transport threw (remote only). */
  httpFailureOf?(error: unknown): HttpFailure | undefined;
  /** The first stdout line that was not JSON-RPC (stdio only). */
  readonly stdoutNoise?: string | undefined;
  /** The last lines the server wrote to stderr ("" when there is none). */
  stderrTail(maxLines?: number, maxChars?: number): string;
  /** Resolves with how the process ended once it has, or with undefined after `ms` (stdio only). */
  waitForExit?(ms: number): Promise<ProcessExit | undefined>;
  /** Closes without a grace period for the server to exit on its own (used after a failure). */
  terminate(): Promise<void>;
}
