import { type MCPHttpServerConfig, type MCPServerConfig, McpRtError } from "@mcp-rt/config";
import { inConfig, timerMs } from "@mcp-rt/config/util";
import {
  type PriorDiscovery,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type VersionNegotiationMode,
} from "@modelcontextprotocol/client";
import type { RemoteClientTransport } from "../client-transport.js";
import { type ConnectFailure, toConnectError } from "../connect-error.js";
import {
  type MCPEraDecision,
  type MCPEraVerdict,
  MODERN_PROTOCOL_VERSION,
  priorFor,
  staleVerdictText,
  storedDecision,
} from "../era.js";
import { getConnectionInternals, type ServerConnection } from "../server-connection.js";
import { httpStatusOf } from "./http-error.js";
import { RemoteTransport } from "./remote-transport.js";

/** The revision a `protocol: "2026-07-28"` config pins. */
const PINNED = MODERN_PROTOCOL_VERSION;

/** One try at a remote server: which transport, and how its SDK client settles the era. */
export interface RemoteStep {
  kind: "http" | "sse";
  /** The SDK's `versionNegotiation.mode` for this try. */
  mode: VersionNegotiationMode;
  /** A stored verdict handed to `client.connect` (no probe), with the verdict it came from. */
  prior?: { discovery: PriorDiscovery; verdict: MCPEraVerdict } | undefined;
  /** Why this try is a fallback: the status the previous try's probe got. */
  afterProbeStatus?: number | undefined;
  /** Set on the probe that follows a stored verdict that failed: what it was. */
  afterStored?: MCPEraVerdict | undefined;
}

/** What {@link connectRemote} needs besides the config. */
export interface RemoteConnectInit {
  name: string;
  /** The config connected with (secrets filled in). */
  config: MCPHttpServerConfig;
  /** The config as written, when `config` was resolved. */
  written: MCPServerConfig | undefined;
  timeoutMs: number;
  /** The caller's signal. */
  signal: AbortSignal | undefined;
  cwd: string;
  sourcePath: string | undefined;
  /** A verdict kept from an earlier connect (`ConnectOptions.prior`). */
  prior: MCPEraVerdict | undefined;
  /** A connection over a new transport of `kind` (stopped by `signal`), its client negotiating with `mode`. */
  open(
    kind: "http" | "sse",
    mode: VersionNegotiationMode,
    signal: AbortSignal,
  ): { connection: ServerConnection; transport: RemoteClientTransport };
}

/**
 * The tries a remote config starts with. `type: "sse"` is legacy whatever the
 * setting (SSE has no modern era); a URL without `type` adds the SSE try
 * behind Streamable HTTP. On Streamable HTTP: `"legacy"` is `initialize`,
 * `"2026-07-28"` a pin, `"auto"` the SDK's in-place probe, or the stored
 * verdict when one is given and agrees with the setting.
 */
export function remoteSteps(config: MCPHttpServerConfig, prior: MCPEraVerdict | undefined): RemoteStep[] {
  const setting = config.protocol ?? "auto";
  const sse: RemoteStep = { kind: "sse", mode: "legacy" };
  if (config.type === "sse") return [sse];
  const http: RemoteStep = { kind: "http", mode: httpMode(setting) };
  const discovery = priorFor(prior, setting);
  if (prior && discovery) http.prior = { discovery, verdict: prior };
  return config.type === "http" ? [http] : [http, sse];
}

function httpMode(setting: MCPHttpServerConfig["protocol"]): VersionNegotiationMode {
  if (setting === "legacy") return "legacy";
  if (setting === PINNED) return { pin: PINNED };
  return "auto";
}

/**
 * The status of a server failure (5xx) that answered the `server/discover`
 * probe: the SDK's `SdkHttpError` with code `EraNegotiationFailed`. Not era
 * evidence, so the server is tried once more straight into `initialize`.
 */
export function probeServerFailure(error: unknown): number | undefined {
  if (!(error instanceof SdkHttpError) || error.code !== SdkErrorCode.EraNegotiationFailed) return undefined;
  const status = httpStatusOf(error);
  return status !== undefined && status >= 500 ? status : undefined;
}

/**
 * True for a pinned connect the server answered without offering the pinned
 * revision: the SDK's own `EraNegotiationFailed` with no HTTP status and no
 * cause (a probe that failed on the network or got an unusable reply carries
 * its cause).
 */
export function isPinRefused(error: unknown): boolean {
  return (
    error instanceof SdkError &&
    !(error instanceof SdkHttpError) &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    error.cause === undefined
  );
}

/**
 * Connects to a remote server within `timeoutMs`, trying each step in turn:
 * Streamable HTTP (probing the era, pinned, legacy, or from a stored
 * verdict), once more as legacy when the probe got a 5xx, then the legacy
 * SSE transport when a URL without `type` got a 4xx (other than 401/403) to
 * `initialize`. Records how the era was decided on the connection.
 */
export async function connectRemote(init: RemoteConnectInit): Promise<ServerConnection> {
  const { name, config, timeoutMs } = init;
  const deadline = AbortSignal.timeout(timerMs(timeoutMs));
  const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
  const started = Date.now();
  if (config.type === "sse" && config.protocol === PINNED) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `MCP server "${name}" has "protocol": "${PINNED}" with "type": "sse", but the SSE transport has only the legacy era; set "type" to "http", or "protocol" to "auto" or "legacy" ${inConfig(init.sourcePath)}`,
      { server: name },
    );
  }
  const steps = remoteSteps(config, init.prior);
  let fallbackFrom: ConnectFailure["fallbackFrom"];
  let probeStatus: number | undefined;
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index] as RemoteStep;
    const { connection, transport } = init.open(step.kind, step.mode, signal);
    const client = getConnectionInternals(connection).client;
    // The SDK's probe listens to no signal: closing the transport ends it (and any request) at once.
    const stop = (): void => void transport.terminate();
    signal.addEventListener("abort", stop, { once: true });
    try {
      await client.connect(transport, {
        signal,
        timeout: timerMs(Math.max(1, timeoutMs - (Date.now() - started))),
        ...(step.prior ? { prior: step.prior.discovery } : {}),
      });
      const decision = eraDecisionOf(step, connection, transport, fallbackFrom);
      connection.settleEra(decision, step.prior?.verdict.decidedAt);
      return connection;
    } catch (error) {
      await transport.terminate();
      const failedProbe = step.mode === "auto" && !step.prior ? probeServerFailure(error) : undefined;
      if (failedProbe !== undefined && !signal.aborted) {
        probeStatus = failedProbe;
        steps.splice(index + 1, 0, { kind: step.kind, mode: "legacy", afterProbeStatus: failedProbe });
        continue;
      }
      const status = transport.httpFailureOf(error)?.status ?? httpStatusOf(error);
      if (step.prior && step.mode !== "legacy" && !signal.aborted && storedVerdictFailed(error, status)) {
        // The server changed since the verdict was kept: ask it again, once, as the setting says.
        steps.splice(index + 1, 0, { kind: step.kind, mode: step.mode, afterStored: step.prior.verdict });
        continue;
      }
      const next = steps[index + 1];
      if (next?.kind === "sse" && step.kind === "http" && !signal.aborted && shouldFallBackToSse(status)) {
        fallbackFrom = { kind: step.kind, status: status as number };
        continue;
      }
      if (typeof step.mode === "object" && isPinRefused(error)) throw pinRefusedError(init, error, transport);
      const failure = toConnectError({
        name,
        config,
        written: init.written,
        error,
        transport,
        exit: undefined,
        timeoutMs,
        signal: init.signal,
        deadline,
        cwd: init.cwd,
        sourcePath: init.sourcePath,
        fallbackFrom,
      });
      const noted =
        probeStatus !== undefined &&
        !McpRtError.isInstance(failure, "AUTH_REQUIRED", "SIGN_IN_REQUIRED", "ABORTED");
      throw noted ? withProbeNote(failure, probeStatus as number) : failure;
    } finally {
      signal.removeEventListener("abort", stop);
    }
  }
  // remoteSteps() never returns an empty list.
  throw new Error("unreachable");
}

/**
 * True when a connect from a stored verdict failed in a way a changed server
 * explains (it refused `initialize`, or answered with another HTTP error);
 * not for a sign-in, an unreachable server or a timeout, which a probe would
 * meet just the same.
 */
function storedVerdictFailed(error: unknown, status: number | undefined): boolean {
  if (status === 401 || status === 403) return false;
  if (status !== undefined) return true;
  return (
    error instanceof ProtocolError ||
    (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed)
  );
}

/**
 * The spec's backwards compatibility rule: a server that answers the
 * initialize POST with a 4xx may be an old HTTP+SSE server. 401 and 403 are
 * about credentials, which SSE would need just the same.
 */
function shouldFallBackToSse(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

function pinRefusedError(
  init: RemoteConnectInit,
  cause: unknown,
  transport: RemoteClientTransport,
): McpRtError {
  const answered = httpAnswer(transport);
  const what = answered
    ? `it answered server/discover with ${answered}`
    : `its answer to server/discover offered no ${PINNED}`;
  return new McpRtError(
    "INIT_FAILED",
    `Connection to MCP server "${init.name}" failed: it does not speak MCP ${PINNED} (${what}); set "protocol" to "auto" or "legacy" ${inConfig(init.sourcePath)}`,
    { server: init.name, cause, details: { protocol: PINNED } },
  );
}

/** The error of the legacy retry, saying that the probe before it failed too. */
function withProbeNote(error: McpRtError, status: number): McpRtError {
  return error.with({
    message: `${error.message}; server/discover had been answered with HTTP ${status}`,
    details: { ...error.details, probeStatus: status },
  });
}

/** How a step that connected decided its era, in a sentence. */
function eraDecisionOf(
  step: RemoteStep,
  connection: ServerConnection,
  transport: RemoteClientTransport,
  fallbackFrom: ConnectFailure["fallbackFrom"],
): MCPEraDecision {
  const version = connection.protocolVersion ?? "unknown";
  if (step.kind === "sse") {
    const why = fallbackFrom ? ` (Streamable HTTP answered HTTP ${fallbackFrom.status})` : "";
    return {
      how: "setting",
      text: `the legacy SSE transport${why} has only the legacy era: initialize (${version})`,
    };
  }
  if (step.prior) return storedDecision(step.prior.verdict);
  if (step.afterStored) {
    return {
      how: "probe",
      text: `${staleVerdictText(step.afterStored)}; ${probeText(connection, transport, version)}`,
    };
  }
  if (step.afterProbeStatus !== undefined) {
    return {
      how: "fallback",
      text: `the server answered server/discover with HTTP ${step.afterProbeStatus}, so it was connected again straight into initialize (${version})`,
    };
  }
  if (step.mode === "legacy")
    return { how: "setting", text: `protocol is "legacy": initialize (${version})` };
  if (typeof step.mode === "object") {
    return { how: "setting", text: `protocol is "${PINNED}": the server offered it through server/discover` };
  }
  return { how: "probe", text: probeText(connection, transport, version) };
}

/** What the probe found, in a sentence. */
function probeText(connection: ServerConnection, transport: RemoteClientTransport, version: string): string {
  if (connection.era === "modern") {
    return `the server answered server/discover offering ${version}, so it speaks the modern era`;
  }
  return `the server answered server/discover with ${probeAnswer(transport)}, so it speaks the legacy era: initialize (${version})`;
}

/** What the probe got, for a legacy verdict: the HTTP error of the first POST, or a JSON-RPC error. */
function probeAnswer(transport: RemoteClientTransport): string {
  const answered = httpAnswer(transport);
  return answered ? `${answered}, not a modern error` : "an error that is not a modern one";
}

/**
 * What the first POST was answered with, when it failed: its HTTP status and
 * the JSON-RPC error of its body (`HTTP 400 (-32000 "Server not initialized")`),
 * else the start of the body; undefined when no POST failed.
 */
function httpAnswer(transport: RemoteClientTransport): string | undefined {
  const failure = transport instanceof RemoteTransport ? transport.httpFailures[0] : undefined;
  if (failure?.method !== "POST") return undefined;
  const body = rpcErrorOf(failure.bodyHead) ?? failure.bodyHead.slice(0, 120);
  return `HTTP ${failure.status}${body ? ` (${body})` : ""}`;
}

/** `-32000 "Server not initialized"` for a body that holds a JSON-RPC error, else undefined. */
function rpcErrorOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    const { code, message } = parsed.error ?? {};
    if (typeof code !== "number") return undefined;
    return typeof message === "string" ? `${code} ${JSON.stringify(message.slice(0, 120))}` : String(code);
  } catch {
    return undefined;
  }
}
