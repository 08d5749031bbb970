import {
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  PROTOCOL_VERSION_META_KEY,
  type RequestId,
  type Transport,
  type TransportSendOptions,
  UnsupportedProtocolVersionError,
} from "@modelcontextprotocol/server";
import type { FixtureHooks } from "./fixture-mcp-server.js";
import type { FixtureOptions } from "./fixture-options.js";
import { appendPidFileEntry } from "./pid-file.js";

/** Whether a request carries the 2026-07-28 `_meta` envelope's protocol version. */
function claimsModernEra(request: JSONRPCRequest): boolean {
  const meta = (request.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  return typeof meta?.[PROTOCOL_VERSION_META_KEY] === "string";
}

/**
 * A stdio fixture's wire, as seen before the SDK: sits between the stdio
 * transport and whatever serves it (`McpServer.connect` or `serveStdio`), and
 * does what the SDK would not. It records `probe` and `initialize` lines in
 * `pidFile`, answers a legacy server's pre-`initialize` `server/discover` as
 * `probeAnswer` says, and pins a dual-era process to the modern era once a
 * `server/discover` was answered, rejecting a later `initialize` the way the
 * SDK rejects one on a modern-only connection.
 */
export class FixtureWireTap implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;
  readonly #options: FixtureOptions;
  readonly #hooks: FixtureHooks;
  #initializeSeen = false;
  /** The `server/discover` requests not answered yet (dual era). */
  readonly #discoverIds = new Set<RequestId>();
  /** Set once a `server/discover` was answered (dual era): the versions it offered. */
  #pinnedModern: string[] | undefined;

  constructor(inner: Transport, options: FixtureOptions, hooks: FixtureHooks) {
    this.#inner = inner;
    this.#options = options;
    this.#hooks = hooks;
  }

  async start(): Promise<void> {
    this.#inner.onmessage = (message, extra) => {
      if (this.#inbound(message)) this.onmessage?.(message, extra);
    };
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (error) => this.onerror?.(error);
    await this.#inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCResultResponse(message) && this.#discoverIds.delete(message.id)) {
      const offered = (message.result as { supportedVersions?: unknown }).supportedVersions;
      this.#pinnedModern = Array.isArray(offered) ? offered.map(String) : [];
    }
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  setProtocolVersion = (version: string): void => {
    this.#inner.setProtocolVersion?.(version);
  };

  /** Records and maybe answers one inbound message; `true` hands it on to the server. */
  #inbound(message: JSONRPCMessage): boolean {
    if (!isJSONRPCRequest(message)) return true;
    const { pidFile, era = "legacy" } = this.#options;
    if (message.method === "server/discover") {
      if (pidFile) appendPidFileEntry(pidFile, "probe");
      if (era === "dual") this.#discoverIds.add(message.id);
      if (era === "legacy" && !this.#initializeSeen) return this.#answerProbe(message);
    }
    if (pidFile && message.method === "tools/list") appendPidFileEntry(pidFile, "list");
    if (message.method === "initialize") {
      if (pidFile) appendPidFileEntry(pidFile, "initialize");
      this.#initializeSeen = true;
      if (this.#pinnedModern && !claimsModernEra(message)) {
        const requested = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
        const error = new UnsupportedProtocolVersionError({
          supported: this.#pinnedModern,
          requested: typeof requested === "string" ? requested : "unknown",
        });
        this.#hooks.log("rejecting initialize: this process speaks 2026-07-28 (--era=dual)");
        this.#reply(message.id, { code: error.code, message: error.message, data: error.data });
        return false;
      }
    }
    return true;
  }

  /** A legacy server's answer to `server/discover` before `initialize`; `true` lets the SDK answer. */
  #answerProbe(request: JSONRPCRequest): boolean {
    switch (this.#options.probeAnswer ?? "method-not-found") {
      case "method-not-found":
        return true;
      case "invalid-params":
        this.#reply(request.id, { code: -32602, message: "Invalid request parameters" });
        return false;
      case "never":
        this.#hooks.log("received server/discover; never answering (--probe-answer=never)");
        return false;
      case "exit":
        return this.#hooks.exit(
          1,
          "received server/discover before initialize; exiting (--probe-answer=exit)",
        );
    }
  }

  #reply(id: RequestId, error: { code: number; message: string; data?: unknown }): void {
    this.#inner.send({ jsonrpc: "2.0", id, error }).catch(() => {});
  }
}
