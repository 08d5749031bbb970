import { createRequire } from "node:module";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isStdioConfig, type MCPServerConfig, type MCPStdioServerConfig, McpRtError } from "@mcp-rt/config";
import { timerMs } from "@mcp-rt/config/util";
import type {
  ClientCapabilities,
  OAuthClientProvider,
  PriorDiscovery,
  VersionNegotiationMode,
} from "@modelcontextprotocol/client";
import { AskingClient } from "./asking-call.js";
import { watchProgress } from "./call-progress.js";
import type { ClientTransport } from "./client-transport.js";
import { toConnectError } from "./connect-error.js";
import { DEFAULT_CONNECT_TIMEOUT_MS } from "./connect-timeout.js";
import type { MCPServerConnection } from "./connection.js";
import { answerElicitation, answerEmbeddedElicitation, MAX_INPUT_ROUNDS } from "./elicitation.js";
import type { ElicitationHandler } from "./elicitation-form.js";
import { type MCPEraDecision, type MCPEraVerdict, MODERN_PROTOCOL_VERSION, staleVerdictText } from "./era.js";
import { errnoOf, rpcCode } from "./error-text.js";
import { checkMaxMessageBytes } from "./message-limit.js";
import type { OAuthOptions } from "./oauth/oauth-options.js";
import { OAuthSession } from "./oauth/oauth-session.js";
import { isSignInRequired } from "./oauth/sign-in-error.js";
import { createTransport } from "./remote/create-transport.js";
import { connectRemote } from "./remote/remote-era.js";
import { LazySchemaValidator } from "./schema-check.js";
import { getConnectionInternals, ServerConnection } from "./server-connection.js";
import { withPassedThrough } from "./stdio/server-process.js";
import { planStdioEra } from "./stdio/stdio-era.js";
import { createStdioTransport, type ProcessGroupStdioTransport } from "./stdio/stdio-transport.js";
import { checkConfigTimeLimits } from "./time-limit.js";

/** How long a failed handshake waits for a server whose pipe broke to report its exit. */
const EXIT_WAIT_MS = 1000;

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

/** Options of {@link connectToServer}: the server, and how to connect to it. */
export interface ConnectToServerOptions extends ConnectOptions {
  /** The server's name in its config file: every message names it. */
  name: string;
  /** Its config, resolved (`resolveServerConfig`): what is started or fetched. */
  config: MCPServerConfig;
}

/** How {@link connectToServer} connects. */
export interface ConnectOptions {
  /** Aborts the handshake: the server is stopped and the promise rejects with `ABORTED`. */
  signal?: AbortSignal;
  /** How the client introduces itself. @default { name: "mcp-rt", version: <this package's version> } */
  clientInfo?: { name: string; version: string; title?: string };
  /** The agent's working folder: stdio servers start here (or in their `cwd`, relative to it), and it is the one root the client reports. @default process.cwd() */
  cwd?: string;
  /** The environment servers inherit from, before secret-looking names are removed. @default process.env */
  env?: Record<string, string | undefined>;
  /**
   * Who the agent acts for: part of `connection.authContext`, so that a
   * server's private lists are never cached for another user (a host that
   * serves several users from one process names each). @default the OS
   * user, host and home folder (`localUser()`)
   */
  user?: string | undefined;
  /** The config file the server came from; error messages say what to change in it. */
  sourcePath?: string;
  /** The config the connection reports as `config`, when `config` was resolved (secrets filled in) for connecting. @default config */
  unresolvedConfig?: MCPServerConfig;
  /** Receives everything a stdio server writes to stderr, as it comes. */
  onStderr?(chunk: string): void;
  /** On close, how long a stdio server may take to exit after its stdin ends, before SIGTERM. @default 1000 */
  stdinGraceMs?: number;
  /** On close, how long a stdio server's process group may take to exit after SIGTERM, before SIGKILL. @default 2000 */
  killGraceMs?: number;
  /**
   * The largest single message the server may send, in bytes: a stdio line,
   * an HTTP response body, or one event of an event stream. Past it, a stdio
   * server's connection is closed (it cannot be resynchronised) and a remote
   * request fails; both with `LIMIT_EXCEEDED`, naming this option. A remote
   * body is counted as it streams, so a huge one is never held whole.
   * @default 10485760 (10 MiB, the SDK's own stdio limit)
   */
  maxMessageBytes?: number;
  /**
   * A hand-made OAuth provider, handed to the SDK's Streamable HTTP and SSE
   * transports as is: they send its tokens, refresh them, and run its
   * authorization flow on a 401. Ignored for a server that `oauth` handles.
   */
  authProvider?: OAuthClientProvider;
  /**
   * OAuth 2.1 for remote servers with `auth: { type: "oauth" }`, and for those
   * with no `auth` (and no `Authorization` header) that answer 401 with a
   * Bearer challenge: stored tokens are sent and refreshed; a server that
   * needs a sign-in fails with `AUTH_REQUIRED` (`isSignInRequired`), or with
   * `interactive: true` the browser sign-in runs first (outside `timeout`).
   */
  oauth?: OAuthOptions;
  /**
   * Answers the server's `elicitation/create` requests (a form to fill in,
   * or a URL to open). Only with a handler does the client declare the
   * `elicitation` capability (`{ form: {}, url: {} }`); the schema's
   * defaults are applied to an accepted form, and content that does not
   * fit the requested schema is refused instead of sent. On a 2026-07-28
   * connection the same handler answers the elicitations of `input_required`
   * results to `callTool`, `getPrompt` and `readResource`: the request is
   * sent again with the answers (at most `MAX_INPUT_ROUNDS` rounds, within
   * its time limit); without a handler such a request fails with
   * `PROTOCOL_ERROR` naming this option.
   */
  onElicitation?: ElicitationHandler | undefined;
  /**
   * The era verdict an earlier connect found (`connection.eraVerdict`, kept
   * in the tool cache): no `server/discover` probe is sent (`{ era:
   * "modern", discover }` connects with no round trip, `{ era: "legacy" }`
   * goes straight to `initialize`). Ignored when the config's `protocol`
   * names the other era. A legacy verdict the server now refuses is
   * followed by one probe. Freshness is the caller's: a legacy verdict
   * never finds out that the server was upgraded while it still answers
   * `initialize`.
   */
  prior?: MCPEraVerdict | undefined;
  /** How long a stdio server has to answer the era probe after its first output (before it, half its `timeout`). @default 5000 */
  probeWaitMs?: number;
}

/**
 * Starts (stdio) or reaches (`url`) a server and runs the MCP handshake
 * (`initialize` + `notifications/initialized`) within `config.timeout`
 * (default 30000 ms). A `url` config uses Streamable HTTP (`type: "http"`) or
 * the legacy SSE transport (`type: "sse"`); without `type` it tries Streamable
 * HTTP and falls back to SSE when the initialize POST gets a 4xx (other than
 * 401/403). `connection.transport` says which one is in use. On Streamable
 * HTTP the config's `protocol` decides the era: `"auto"` (the default) sends
 * a `server/discover` first and lands modern (2026-07-28) or, on a 4xx that
 * is not a modern error, legacy (`initialize`); a 5xx to it is tried once
 * more as legacy; `"legacy"` sends `initialize` only; `"2026-07-28"` fails
 * with `INIT_FAILED` against a server that does not speak it; `prior` skips
 * the probe. `connection.eraDecision` says how it went. The client
 * declares the `roots` capability and answers `roots/list` with the agent's
 * cwd. On any failure the server's process group is gone (stdio) before the
 * promise rejects with an `McpRtError` (`CONFIG_INVALID`, `SPAWN_FAILED`,
 * `CONNECT_TIMEOUT`, `INIT_FAILED`, `HTTP_ERROR`, `AUTH_REQUIRED`,
 * `TRANSPORT_CLOSED`, `ABORTED`) that carries the stderr tail. `oauth` says
 * how a remote server's sign-in is used.
 *
 * @example
 * ```ts
 * const connection = await connectToServer({ name: "files", config: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] } });
 * const tools = await listTools(connection);
 * const result = await callTool(connection, { name: "list_directory", args: { path: "." } });
 * await closeConnection(connection);
 * ```
 */
export async function connectToServer({
  name,
  config,
  ...options
}: ConnectToServerOptions): Promise<MCPServerConnection> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const timeoutMs = config.timeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
  if (options.signal?.aborted) {
    throw new McpRtError("ABORTED", `Connection to MCP server "${name}" was aborted`, {
      server: name,
      cause: options.signal.reason,
    });
  }
  checkConfigTimeLimits(name, config, options.sourcePath);
  checkMaxMessageBytes(options.maxMessageBytes);

  const session =
    options.oauth && !isStdioConfig(config)
      ? OAuthSession.forServer({ name, config, options: options.oauth, sourcePath: options.sourcePath })
      : undefined;
  const attempt = (): Promise<ServerConnection> =>
    connectOnce(name, config, options, { cwd, timeoutMs, session });
  let connection: ServerConnection;
  try {
    connection = await attempt();
  } catch (error) {
    const mayAsk = options.oauth?.interactive === true || options.oauth?.interactive === "connect";
    if (!session || !mayAsk || !isSignInRequired(error)) throw error;
    // The sign-in waits for the user, so it runs outside the connect time limit.
    await session.signIn(session.lastNeed ?? { reason: "not-signed-in" }, options.signal);
    connection = await attempt();
  }
  if (session) session.interactive = options.oauth?.interactive === true;
  if (session) connection.usePrincipal(() => session.principal());
  connection.startListening(timeoutMs);
  return connection;
}

/** What one connection attempt needs besides the config and options. */
interface AttemptContext {
  cwd: string;
  timeoutMs: number;
  session: OAuthSession | undefined;
}

/** One connection attempt within `config.timeout`: each transport kind in turn (Streamable HTTP, then SSE). */
async function connectOnce(
  name: string,
  config: MCPServerConfig,
  options: ConnectOptions,
  { cwd, timeoutMs, session }: AttemptContext,
): Promise<ServerConnection> {
  if (!isStdioConfig(config)) {
    return connectRemote({
      name,
      config,
      written: options.unresolvedConfig,
      timeoutMs,
      signal: options.signal,
      cwd,
      sourcePath: options.sourcePath,
      prior: options.prior,
      open: (kind, mode, signal) => {
        const transport = createTransport(name, config, {
          kind,
          authProvider: session ? undefined : options.authProvider,
          fetch: session?.fetch,
          signal,
          sourcePath: options.sourcePath,
          maxMessageBytes: options.maxMessageBytes,
        });
        return { transport, connection: createConnection(name, config, transport, cwd, options, mode) };
      },
    });
  }
  const started = Date.now();
  const remaining = (): number => Math.max(1, timeoutMs - (Date.now() - started));
  try {
    return await connectStdio(name, config, options, { cwd, timeoutMs });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    // A stored verdict the server no longer fits (a modern-only server rejecting `initialize`): ask it again, once.
    if (options.prior && isRejection(error)) {
      const connection = await connectStdio(
        name,
        config,
        { ...options, prior: undefined },
        { cwd, timeoutMs: remaining() },
      );
      connection.settleEra({
        how: connection.eraDecision.how,
        text: `${staleVerdictText(options.prior)}; ${connection.eraDecision.text}`,
      });
      return connection;
    }
    // A fallback `initialize` refused with -32022 naming 2026-07-28: a modern-only server that was
    // slow to answer the probe. Asked again, waiting for its answer this time.
    const modernOnly = config.protocol === "legacy" ? undefined : modernOnlyRefusal(error);
    if (!modernOnly) throw error;
    return connectStdio(
      name,
      config,
      { ...options, prior: undefined },
      { cwd, timeoutMs: remaining(), modernOnly },
    );
  }
}

/**
 * What happened, when `error` is an `initialize` refused with -32022 whose
 * `supported` list names 2026-07-28: the server speaks only the modern era.
 */
function modernOnlyRefusal(error: unknown): string | undefined {
  if (!McpRtError.isInstance(error) || error.code !== "INIT_FAILED") return undefined;
  const cause = error.cause;
  if (rpcCode(cause) !== UNSUPPORTED_PROTOCOL_VERSION) return undefined;
  const supported = (cause as { data?: { supported?: unknown } }).data?.supported;
  if (!Array.isArray(supported) || !supported.includes(MODERN_PROTOCOL_VERSION)) return undefined;
  return `initialize was refused with -32022 (it supports only ${supported.join(", ")})`;
}

/** The `-32022` (UnsupportedProtocolVersion) error of MCP 2026-07-28. */
const UNSUPPORTED_PROTOCOL_VERSION = -32_022;

/**
 * Starts a stdio server and connects within `config.timeout`: its era is
 * found on the process that keeps serving it (`planStdioEra`), or on a
 * second one straight into `initialize` when the probe got no answer.
 */
async function connectStdio(
  name: string,
  config: MCPStdioServerConfig,
  options: ConnectOptions,
  { cwd, timeoutMs, modernOnly }: { cwd: string; timeoutMs: number; modernOnly?: string | undefined },
): Promise<ServerConnection> {
  const deadline = AbortSignal.timeout(timerMs(timeoutMs));
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const started = Date.now();
  const newTransport = (): ProcessGroupStdioTransport =>
    createStdioTransport({
      command: config.command,
      args: config.args ?? [],
      env: config.env,
      envPassthrough: config.envPassthrough,
      parentEnv: options.env,
      cwd: config.cwd,
      agentCwd: cwd,
      signal,
      ...(options.onStderr ? { onStderr: options.onStderr } : {}),
      ...(options.stdinGraceMs !== undefined ? { stdinGraceMs: options.stdinGraceMs } : {}),
      ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
      ...(options.maxMessageBytes !== undefined ? { maxMessageBytes: options.maxMessageBytes } : {}),
    });
  let transport = newTransport();
  try {
    const plan = await planStdioEra(transport, {
      setting: config.protocol,
      prior: options.prior,
      clientInfo: clientInfoOf(options),
      capabilities: capabilitiesOf(options),
      signal,
      probeWaitMs: options.probeWaitMs,
      timeoutMs,
      modernOnly,
    });
    const era: { prior: PriorDiscovery; decision: MCPEraDecision; decidedAt: number } =
      plan.kind === "restart"
        ? { prior: { kind: "legacy" }, decision: plan.decision, decidedAt: Date.now() }
        : plan;
    if (plan.kind === "restart") {
      await transport.terminate();
      transport = newTransport();
    }
    const connection = createConnection(name, config, transport, cwd, options);
    await getConnectionInternals(connection).client.connect(transport, {
      signal,
      timeout: timerMs(Math.max(1, timeoutMs - (Date.now() - started))),
      prior: era.prior,
    });
    connection.settleEra(era.decision, era.decidedAt);
    return connection;
  } catch (error) {
    // Read before stopping it: after terminate() every process has "exited". A server
    // that dies at once fails the initialize write (EPIPE) before its exit is seen.
    const exit =
      transport.exit ??
      (errnoOf(error) === undefined ? undefined : await transport.waitForExit(EXIT_WAIT_MS));
    await transport.terminate();
    throw toConnectError({
      name,
      config: withPassedThrough(config, options.env),
      written: options.unresolvedConfig,
      error,
      transport,
      exit,
      timeoutMs,
      signal: options.signal,
      deadline,
      cwd,
      sourcePath: options.sourcePath,
    });
  }
}

/** How the client introduces itself. */
function clientInfoOf(options: ConnectOptions): { name: string; version: string; title?: string } {
  return options.clientInfo ?? { name: "mcp-rt", version };
}

/** What the client declares: roots, and elicitation when there is a handler. */
function capabilitiesOf(options: ConnectOptions): ClientCapabilities {
  return options.onElicitation ? { roots: {}, elicitation: { form: {}, url: {} } } : { roots: {} };
}

/** The server answered the handshake with a JSON-RPC error (not a timeout, an exit or a network failure). */
function isRejection(error: unknown): boolean {
  return McpRtError.isInstance(error) && error.code === "INIT_FAILED" && rpcCode(error.cause) !== undefined;
}

/** A connection (not yet initialized) over `transport`, with its SDK client's handlers set. */
function createConnection(
  name: string,
  config: MCPServerConfig,
  transport: ClientTransport,
  cwd: string,
  options: ConnectOptions,
  mode: VersionNegotiationMode = "legacy",
): ServerConnection {
  const client = new AskingClient(clientInfoOf(options), {
    capabilities: capabilitiesOf(options),
    jsonSchemaValidator: new LazySchemaValidator(),
    // stdio: the 2025 wire (`initialize`, no probe); remote: what the config's `protocol` asks (remote/remote-era.ts).
    versionNegotiation: { mode },
    // 2026-07-28: the SDK answers `input_required` with the handlers below and retries (new id,
    // `requestState` echoed as sent), also for `client.request`, which mcp-rt sends.
    inputRequired: { maxRounds: MAX_INPUT_ROUNDS },
  });
  const connection = new ServerConnection({
    name,
    config: options.unresolvedConfig ?? config,
    resolvedConfig: config,
    client,
    transport,
    sourcePath: options.sourcePath,
    user: options.user,
    parentEnv: options.env,
  });
  watchProgress(client);
  const onElicitation = options.onElicitation;
  if (onElicitation) {
    // A modern connection gets no server requests: there the handler answers `input_required` rounds.
    client.setRequestHandler("elicitation/create", (request, ctx) =>
      connection.era === "modern"
        ? (answerEmbeddedElicitation(
            name,
            request.params as never,
            onElicitation,
            ctx.mcpReq.signal,
          ) as never)
        : (answerElicitation(name, request.params as never, onElicitation, ctx.mcpReq.signal) as never),
    );
  }
  client.setRequestHandler("roots/list", () => ({
    roots: [{ uri: pathToFileURL(cwd).href, name: basename(cwd) || cwd }],
  }));
  return connection;
}
