import type { McpRtErrorDetails } from "@mcp-rt/config";
import type { Transport } from "@modelcontextprotocol/client";
import type { HttpFailure } from "./remote/remote-fetch.js";

/** How a server process ended. */
export interface ProcessExit {
  /** Exit code, or null when a signal ended it. */
  code: number | null;
  /** The signal that ended it, if any. */
  signal: NodeJS.Signals | null;
}

/** What every transport tells a connection besides the SDK's `Transport`. */
interface TransportFacts extends Transport {
  /** The protocol version agreed at `initialize`. */
  readonly protocolVersion?: string | undefined;
  /** Why the transport closed on its own (a lost session, a dropped stream, a message too large, a broken stdin), once it has. */
  readonly closeReason?: string | undefined;
  /** Facts about that close (HTTP status, session id, errno), for error `details`. */
  readonly closeDetails?: McpRtErrorDetails["TRANSPORT_CLOSED"] | undefined;
  /** Closes without a grace period for the server to exit on its own (used after a failure). */
  terminate(): Promise<void>;
}

/** A transport to a local server process. */
export interface StdioClientTransport extends TransportFacts {
  readonly kind: "stdio";
  /** The server's process id, once it started. */
  readonly pid: number | undefined;
  /** How the server process ended, once it has. */
  readonly exit: ProcessExit | undefined;
  /** Set when the transport closed because the server sent a message past `maxMessageBytes`: what happened. */
  readonly limitBreach: string | undefined;
  /** The first stdout line that was not JSON-RPC. */
  readonly stdoutNoise: string | undefined;
  /** The last lines the server wrote to stderr ("" when it wrote none). */
  stderrTail(maxLines?: number, maxChars?: number): string;
  /** Resolves with how the process ended once it has, or with undefined after `ms`. */
  waitForExit(ms: number): Promise<ProcessExit | undefined>;
}

/** A transport to a remote server, over Streamable HTTP or SSE. */
export interface RemoteClientTransport extends TransportFacts {
  readonly kind: "http" | "sse";
  /** The HTTP error response behind an error the transport threw. */
  httpFailureOf(error: unknown): HttpFailure | undefined;
}

/**
 * What a connection needs from its transport: facts for error messages, and a
 * close that does not wait politely. `kind` says which facts there are.
 */
export type ClientTransport = StdioClientTransport | RemoteClientTransport;

/** The server's recent stderr, or undefined when there is none (a remote server has none). */
export function stderrOf(
  transport: ClientTransport,
  maxLines?: number,
  maxChars?: number,
): string | undefined {
  return transport.kind === "stdio" ? transport.stderrTail(maxLines, maxChars) || undefined : undefined;
}
