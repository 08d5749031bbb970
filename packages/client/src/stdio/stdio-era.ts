import type { MCPProtocolSetting } from "@mcp-rt/config";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type ClientCapabilities,
  type Implementation,
  PROTOCOL_VERSION_META_KEY,
  type PriorDiscovery,
  SdkError,
  SdkErrorCode,
} from "@modelcontextprotocol/client";
import {
  type MCPEraDecision,
  type MCPEraVerdict,
  MODERN_PROTOCOL_VERSION,
  priorFor,
  storedDecision,
} from "../era.js";
import type { ProcessGroupStdioTransport } from "./stdio-transport.js";

/**
 * How long a stdio server has to answer `server/discover` after its first
 * sign of life (its first output on stdout or stderr). Until it writes
 * anything it gets half its `timeout` instead, at least this much: `npx -y`
 * on a cold cache downloads the package in silence, and a dual-era server
 * behind it must not look legacy for that. A server that does not answer
 * in time is started again straight into `initialize`.
 */
export const PROBE_WAIT_MS = 5000;

/** The `-32022` (UnsupportedProtocolVersion) error of MCP 2026-07-28. */
const UNSUPPORTED_PROTOCOL_VERSION = -32_022;

/** What to do after the era is known. */
export type StdioEraPlan =
  /** Connect on the probed process (or, with a stored verdict, the fresh one). */
  | { kind: "connect"; prior: PriorDiscovery; decision: MCPEraDecision; decidedAt: number }
  /** The probe got no usable answer: stop this process and start another straight into `initialize`. */
  | { kind: "restart"; decision: MCPEraDecision };

/** What {@link planStdioEra} needs. */
export interface StdioEraOptions {
  setting: MCPProtocolSetting | undefined;
  /** A verdict from an earlier connect, when there is one to trust. */
  prior: MCPEraVerdict | undefined;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  /** The connect's signal (caller's abort and `timeout`). */
  signal: AbortSignal;
  /** How long to wait for the probe's answer after the server's first output. @default {@link PROBE_WAIT_MS} */
  probeWaitMs?: number | undefined;
  /** The server's connect `timeout`: a server that has written nothing yet gets half of it. */
  timeoutMs: number;
}

/**
 * Decides a stdio server's era on the process that will keep serving it:
 * `legacy` and a stored verdict send nothing; otherwise `server/discover`
 * goes out with the `_meta` envelope. A result offering 2026-07-28 → modern;
 * `-32022` → one more probe at a version from its `supported` list; any
 * other error → legacy, `initialize` on the same process; silence or an
 * exit → a new process straight into `initialize` (`"auto"` only: with
 * `"2026-07-28"` each of these fails the connect). Starts the transport.
 */
export async function planStdioEra(
  transport: ProcessGroupStdioTransport,
  options: StdioEraOptions,
): Promise<StdioEraPlan> {
  const { setting, prior } = options;
  if (setting === "legacy") {
    await transport.start();
    return connectAs({ kind: "legacy" }, "setting", 'the config says protocol "legacy"');
  }
  // Only a stored verdict is looked up: a first connect goes straight to the probe.
  const adopted = prior && priorFor(prior, setting);
  if (prior && adopted) {
    await transport.start();
    const { how, text } = storedDecision(prior);
    return connectAs(adopted, how, text, prior.decidedAt);
  }
  const pinned = setting === "2026-07-28";
  await transport.start();
  const probe = new DiscoverProbe(transport, options);
  let version = MODERN_PROTOCOL_VERSION;
  for (let attempt = 0; ; attempt++) {
    const reply = await probe.send(version);
    if (reply.kind === "result") {
      const offered = supportedVersions(reply.result);
      if (offered?.includes(MODERN_PROTOCOL_VERSION)) {
        return connectAs(
          { kind: "modern", discover: reply.result as never },
          pinned ? "setting" : "probe",
          `the server answered server/discover offering ${offered.join(", ")}`,
        );
      }
      const what = offered
        ? `offering only ${offered.join(", ") || "no version"}`
        : "with a result that is not a discover result";
      if (pinned) throw notModern(`it answered server/discover ${what}`);
      return connectAs(
        { kind: "legacy" },
        "probe",
        `the server answered server/discover ${what}, so it is spoken to in the legacy era`,
      );
    }
    if (reply.kind === "error") {
      const supported = reply.code === UNSUPPORTED_PROTOCOL_VERSION ? supportedList(reply.data) : undefined;
      if (supported?.includes(MODERN_PROTOCOL_VERSION) && attempt === 0) {
        version = MODERN_PROTOCOL_VERSION;
        continue;
      }
      const what = `the server answered server/discover with ${reply.code} (${reply.message})`;
      if (pinned) throw notModern(what.replace("the server answered", "it answered"));
      return connectAs({ kind: "legacy" }, "probe", `${what}, so it speaks the legacy era`);
    }
    const what =
      reply.kind === "closed"
        ? "the server exited on server/discover"
        : `the server did not answer server/discover ${probe.describeWait()}`;
    if (pinned) throw notModern(what.replace("the server ", "it "));
    return {
      kind: "restart",
      decision: {
        how: "fallback",
        text: `${what}, so it was started again straight into initialize (legacy era)`,
      },
    };
  }
}

function connectAs(
  prior: PriorDiscovery,
  how: MCPEraDecision["how"],
  text: string,
  decidedAt: number = Date.now(),
): StdioEraPlan {
  return { kind: "connect", prior, decision: { how, text }, decidedAt };
}

function notModern(what: string): SdkError {
  return new SdkError(
    SdkErrorCode.EraNegotiationFailed,
    `the config says protocol "${MODERN_PROTOCOL_VERSION}", but ${what}; set "protocol" to "auto" or "legacy"`,
  );
}

function supportedVersions(result: unknown): string[] | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const versions = (result as { supportedVersions?: unknown }).supportedVersions;
  return Array.isArray(versions) && versions.every((v) => typeof v === "string") ? versions : undefined;
}

function supportedList(data: unknown): string[] | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const supported = (data as { supported?: unknown }).supported;
  return Array.isArray(supported) && supported.every((v) => typeof v === "string") ? supported : undefined;
}

type ProbeReply =
  | { kind: "result"; result: unknown }
  | { kind: "error"; code: number; message: string; data?: unknown }
  | { kind: "closed" }
  | { kind: "silent" };

/**
 * The probe on the transport before the SDK client takes it: the transport
 * hands back its answer by id (anything else the server sends meanwhile is
 * dropped), and an exit ends the wait.
 */
class DiscoverProbe {
  readonly waitMs: number;
  readonly #transport: ProcessGroupStdioTransport;
  readonly #options: StdioEraOptions;
  readonly #spawnedAt = Date.now();
  #count = 0;

  constructor(transport: ProcessGroupStdioTransport, options: StdioEraOptions) {
    this.#transport = transport;
    this.#options = options;
    this.waitMs = options.probeWaitMs ?? PROBE_WAIT_MS;
  }

  /** Sends `server/discover` at `version`; resolves with the answer, or rejects when the connect is aborted or times out. */
  send(version: string): Promise<ProbeReply> {
    const { signal, clientInfo, capabilities } = this.#options;
    signal.throwIfAborted();
    const id = `mcp-rt-discover-${++this.#count}`;
    return new Promise<ProbeReply>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const done = (): void => {
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      };
      const settle = (reply: ProbeReply): void => {
        done();
        resolve(reply);
      };
      const onAbort = (): void => {
        done();
        reject(signal.reason);
      };
      // The wait counts from the first sign of life: a server still being downloaded has not started yet.
      const arm = (): void => {
        if (settled) return;
        clearTimeout(timer);
        const at = this.#waitUntil();
        timer = setTimeout(() => settle({ kind: "silent" }), Math.max(0, at - Date.now()));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      arm();
      this.#transport.firstOutput().then(arm, () => {});
      this.#transport.answerTo(id).then((answer) => {
        if (!answer) settle({ kind: "closed" });
        else if ("result" in answer) settle({ kind: "result", result: answer.result });
        else if ("error" in answer) settle({ kind: "error", ...answer.error });
      });
      this.#transport
        .send({
          jsonrpc: "2.0",
          id,
          method: "server/discover",
          params: {
            _meta: {
              [PROTOCOL_VERSION_META_KEY]: version,
              [CLIENT_INFO_META_KEY]: clientInfo,
              [CLIENT_CAPABILITIES_META_KEY]: capabilities,
            },
          },
        })
        .catch(() => settle({ kind: "closed" }));
    });
  }

  /** When the wait for an answer ends: {@link PROBE_WAIT_MS} after the first output, or half the timeout after the spawn while there is none. */
  #waitUntil(): number {
    const spoke = this.#transport.firstOutputAt;
    if (spoke !== undefined) return spoke + this.waitMs;
    return this.#spawnedAt + Math.max(this.waitMs, this.#options.timeoutMs / 2);
  }

  /** `within 5000 ms of its first output`, or `within 15000 ms of its start, writing nothing`. */
  describeWait(): string {
    const spoke = this.#transport.firstOutputAt;
    if (spoke !== undefined) return `within ${this.waitMs} ms of its first output`;
    const silentMs = Math.round(Math.max(this.waitMs, this.#options.timeoutMs / 2));
    return `within ${silentMs} ms of its start, writing nothing`;
  }
}
