/**
 * The facts each `McpRtError` code carries in `details`, by code: what a host
 * can read without reading the source. A code whose entry is `never` carries
 * none; every fact is optional unless the code always has it.
 */

/** Why a server needs the user to sign in (again). */
export type SignInReason =
  /** Nothing is stored for this server and its authorization server. */
  | "not-signed-in"
  /** The stored sign-in was refused: the refresh token expired or was revoked (`invalid_grant`). */
  | "expired"
  /** The tokens could not be refreshed for another reason (the authorization server failed or is unreachable). */
  | "refresh-failed"
  /** The server asked for a scope the sign-in does not cover (403 `insufficient_scope`). */
  | "insufficient-scope";

/** How a sign-in the user started ended, when it failed. */
export type SignInFailureKind =
  | "discovery"
  | "authorization-server"
  | "issuer-mismatch"
  | "no-registration"
  | "unreachable"
  | "denied"
  | "timeout"
  | "port-taken"
  | "aborted"
  | "open";

/** What a remote server's HTTP answer said. */
export interface HttpAnswerFacts {
  status?: number;
  statusText?: string;
  method?: string;
  /** The address, with secrets in its query hidden. */
  url?: string;
  /** The head of the body, redacted. */
  body?: string;
  /** The `WWW-Authenticate` header of a 401 or 403. */
  wwwAuthenticate?: string;
  /** Where a redirect to another origin pointed (not followed). */
  location?: string;
  /** The session id the server no longer knows. */
  sessionId?: string;
}

/** How a remote connection was tried, added to its failure. */
export interface ConnectTryFacts {
  /** Streamable HTTP was tried first and answered this; the legacy SSE transport was tried too. */
  fallbackFrom?: { kind: string; status: number };
  /** The HTTP status `server/discover` was answered with before the legacy retry. */
  probeStatus?: number;
}

/** A network failure: `ENOTFOUND`, `ECONNREFUSED`… */
export interface NetworkFacts {
  errno?: string;
}

/** How a server process ended. */
export interface ProcessExitFacts {
  /** Its exit code, or null when a signal ended it. */
  exitCode?: number | null;
  signal?: string | null;
}

/** The JSON-RPC error code a server answered with. */
export interface RpcFacts {
  rpcCode?: number;
}

/** What a server that needs a sign-in said, and what the failed sign-in met. */
export interface SignInFacts extends HttpAnswerFacts, ConnectTryFacts {
  reason: SignInReason;
  /** The scope the server asked for, if it named one. */
  scope?: string;
  /** The authorization server, when known. */
  issuer?: string;
  /** Set when a sign-in was tried and failed: how. */
  failure?: SignInFailureKind;
}

/** The facts of each code. */
export interface McpRtErrorDetails {
  CONFIG_INVALID: never;
  CONFIG_UNREADABLE: never;
  VAR_UNSET: never;
  INPUT_UNRESOLVED: never;
  /** The config field whose `!command` failed (`env.API_KEY`, `headers.Authorization`). */
  SHELL_FAILED: { field: string };
  SPAWN_FAILED: NetworkFacts;
  CONNECT_TIMEOUT: ConnectTryFacts;
  /** `protocol`: the revision the config pins and the server does not speak. */
  INIT_FAILED: ProcessExitFacts & RpcFacts & ConnectTryFacts & { protocol?: string };
  HTTP_ERROR: HttpAnswerFacts & NetworkFacts & ConnectTryFacts;
  /** Credentials refused, or an API key missing (`credentialId`: the key's id in the auth storage). */
  AUTH_REQUIRED: HttpAnswerFacts & ConnectTryFacts & { credentialId?: string };
  /** A server that needs the user to sign in (OAuth): a manager shows it as `needs-auth`. */
  SIGN_IN_REQUIRED: SignInFacts;
  TRANSPORT_CLOSED: ProcessExitFacts &
    NetworkFacts &
    ConnectTryFacts &
    Pick<HttpAnswerFacts, "status" | "sessionId">;
  REQUEST_TIMEOUT: never;
  /** `resourceNotFound`: the server answered -32002 to a read; `tool`: the tool whose declared headers are invalid. */
  PROTOCOL_ERROR: RpcFacts & { resourceNotFound?: boolean; tool?: string };
  TOOL_NOT_FOUND: RpcFacts;
  TOOL_NAME_TAKEN: { name: string };
  NOT_CONNECTED: never;
  UNKNOWN_SERVER: never;
  CACHE_ERROR: never;
  /** `rounds`: the `input_required` rounds answered before giving up. */
  LIMIT_EXCEEDED: { rounds?: number };
  ABORTED: never;
}
