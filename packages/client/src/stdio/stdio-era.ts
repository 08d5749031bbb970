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
 * How long a stdio server has to answer `server/discover` after its last
 * output on stdout or stderr (each line it writes, a banner, `npm warn`
 * lines of a cold `npx -y`, starts the wait again). Until it writes anything
 * it gets half its `timeout` instead, at least this much: `npx -y` on a cold
 * cache downloads the package in silence, and a dual-era server behind it
 * must not look legacy for that; a server that keeps writing is waited for
 * no longer than that either. A server that does not answer in time is
 * started again straight into `initialize`.
 */
export const PROBE_WAIT_MS = 5000;

/**
 * How soon an exit counts as the server's answer to the probe: servers on
 * some SDKs exit on any request before `initialize`, and get one more
 * process, straight into `initialize`. Counted from the probe's write, or
 * from the server's first output when that came later: a server that takes
 * seconds to load (a cold `npx`, a loaded machine) reads the probe only then.
 * A server that exits later, or after writing on stdout, failed on its own:
 * that is its error, and no second process is started.
 */
export const PROBE_EXIT_WINDOW_MS = 1000;

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
  /**
   * Set when the server refused a fallback `initialize` with -32022 naming
   * 2026-07-28 (what happened, in words): it speaks only the modern era, so
   * the probe waits for its answer and never falls back.
   */
  modernOnly?: string | undefined;
}

/**
 * Decides a stdio server's era on the process that will keep serving it:
 * `legacy` and a stored verdict send nothing; otherwise `server/discover`
 * goes out with the `_meta` envelope. A result offering 2026-07-28 → modern;
 * a JSON-RPC error → legacy, `initialize` on the same process; silence, or
 * an exit right after the probe (within {@link PROBE_EXIT_WINDOW_MS}, before
 * any stdout) → a new process straight into `initialize` (`"auto"` only:
 * with `"2026-07-28"` each of these fails the connect); any other exit
 * rejects (the server failed by itself). `modernOnly` (the server refused a
 * fallback `initialize` with -32022) waits for the answer without falling
 * back. Starts the transport.
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
  const pinned = setting === "2026-07-28" || options.modernOnly !== undefined;
  await transport.start();
  const probe = new DiscoverProbe(transport, options);
  const reply = await probe.send(MODERN_PROTOCOL_VERSION);
  const how = setting === "2026-07-28" ? "setting" : "probe";
  const before = options.modernOnly ? `${options.modernOnly}; asked again, ` : "";
  if (reply.kind === "result") {
    const offered = supportedVersions(reply.result);
    if (offered?.includes(MODERN_PROTOCOL_VERSION)) {
      return connectAs(
        { kind: "modern", discover: reply.result as never },
        how,
        `${before}the server answered server/discover offering ${offered.join(", ")}`,
      );
    }
    const what = offered
      ? `offering only ${offered.join(", ") || "no version"}`
      : "with a result that is not a discover result";
    if (pinned) throw notModern(`it answered server/discover ${what}`, options);
    return connectAs(
      { kind: "legacy" },
      "probe",
      `the server answered server/discover ${what}, so it is spoken to in the legacy era`,
    );
  }
  if (reply.kind === "error") {
    const what = `the server answered server/discover with ${reply.code} (${reply.message})`;
    if (pinned) throw notModern(what.replace("the server answered", "it answered"), options);
    return connectAs({ kind: "legacy" }, "probe", `${what}, so it speaks the legacy era`);
  }
  if (reply.kind === "exited") throw new Error("the server exited before it answered server/discover");
  const what =
    reply.kind === "closed"
      ? "the server exited on server/discover, before writing on stdout"
      : `the server did not answer server/discover ${probe.describeWait()}`;
  if (pinned) throw notModern(what.replace("the server ", "it "), options);
  return {
    kind: "restart",
    decision: {
      how: "fallback",
      text: `${what}, so it was started again straight into initialize (legacy era)`,
    },
  };
}

function connectAs(
  prior: PriorDiscovery,
  how: MCPEraDecision["how"],
  text: string,
  decidedAt: number = Date.now(),
): StdioEraPlan {
  return { kind: "connect", prior, decision: { how, text }, decidedAt };
}

function notModern(what: string, options: StdioEraOptions): SdkError {
  const why = options.modernOnly
    ? `${options.modernOnly}, but asked again ${what.replace(/^it /, "")}`
    : `the config says protocol "${MODERN_PROTOCOL_VERSION}", but ${what}; set "protocol" to "auto" or "legacy"`;
  return new SdkError(SdkErrorCode.EraNegotiationFailed, why);
}

function supportedVersions(result: unknown): string[] | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const versions = (result as { supportedVersions?: unknown }).supportedVersions;
  return Array.isArray(versions) && versions.every((v) => typeof v === "string") ? versions : undefined;
}

type ProbeReply =
  | { kind: "result"; result: unknown }
  | { kind: "error"; code: number; message: string; data?: unknown }
  /** It exited right after the probe, before writing on stdout: its answer to the probe. */
  | { kind: "closed" }
  /** It exited later, or after writing on stdout: it failed by itself. */
  | { kind: "exited" }
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
  #sentAt: number | undefined;
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
      let stopWatching = (): void => {};
      const done = (): void => {
        settled = true;
        clearTimeout(timer);
        stopWatching();
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
      // The wait counts from the last sign of life: a server still being downloaded, or still
      // printing its start, has not started serving yet.
      const arm = (): void => {
        if (settled) return;
        clearTimeout(timer);
        const at = this.#waitUntil();
        if (Number.isFinite(at))
          timer = setTimeout(() => settle({ kind: "silent" }), Math.max(0, at - Date.now()));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      arm();
      stopWatching = this.#transport.onOutput(arm);
      this.#transport.answerTo(id).then((answer) => {
        if (!answer) settle({ kind: this.#answeredByExit() ? "closed" : "exited" });
        else if ("result" in answer) settle({ kind: "result", result: answer.result });
        else if ("error" in answer) settle({ kind: "error", ...answer.error });
      });
      this.#sentAt = Date.now();
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

  /** True when the exit came right after the probe (or the first output), before any stdout: the server's way of refusing it. */
  #answeredByExit(): boolean {
    const sentAt = this.#sentAt ?? this.#spawnedAt;
    const { firstStdoutAt, firstOutputAt } = this.#transport;
    const since = Math.max(sentAt, firstOutputAt ?? sentAt);
    return firstStdoutAt === undefined && Date.now() - since <= PROBE_EXIT_WINDOW_MS;
  }

  /** How long a server that writes nothing is waited for: half its timeout, at least {@link PROBE_WAIT_MS}. */
  get #silentMs(): number {
    return Math.max(this.waitMs, this.#options.timeoutMs / 2);
  }

  /**
   * When the wait for an answer ends: {@link PROBE_WAIT_MS} after the last
   * output, or half the timeout after the spawn while there is none; a server
   * that keeps writing, no later than the later of those two.
   */
  #waitUntil(): number {
    // A modern-only server is waited for until the connect's own deadline: there is nothing to fall back to.
    if (this.#options.modernOnly) return Number.POSITIVE_INFINITY;
    const silentUntil = this.#spawnedAt + this.#silentMs;
    const { firstOutputAt, lastOutputAt } = this.#transport;
    if (lastOutputAt === undefined || firstOutputAt === undefined) return silentUntil;
    return Math.min(lastOutputAt + this.waitMs, Math.max(silentUntil, firstOutputAt + this.waitMs));
  }

  /** `within 5000 ms of its last output`, or `within 15000 ms of its start, writing nothing`. */
  describeWait(): string {
    if (this.#transport.lastOutputAt !== undefined) return `within ${this.waitMs} ms of its last output`;
    return `within ${Math.round(this.#silentMs)} ms of its start, writing nothing`;
  }
}
