import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { type JSONRPCMessage, parseJSONRPCMessage, type Transport } from "@modelcontextprotocol/server";

/**
 * The server side of the legacy HTTP+SSE transport (protocol 2024-11-05),
 * which the v2 SDK keeps only in `@modelcontextprotocol/server-legacy` (with
 * a second copy of its core): the event stream of one `GET` announces where
 * to post (`event: endpoint`), each message to the client is one
 * `event: message`, and each `POST` to that endpoint carries one message
 * from the client (answered `202 Accepted`).
 */
export class SseServerTransport implements Transport {
  readonly sessionId: string = randomUUID();
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  readonly #endpoint: string;
  readonly #res: ServerResponse;
  #closed = false;

  /** `endpoint`: the path the client posts to (the session id is added as `?sessionId=`). */
  constructor(endpoint: string, res: ServerResponse) {
    this.#endpoint = `${endpoint}?sessionId=${this.sessionId}`;
    this.#res = res;
    res.on("close", () => this.#reportClose());
  }

  async start(): Promise<void> {
    this.#res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
    });
    this.#res.write(`event: endpoint\ndata: ${this.#endpoint}\n\n`);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error("Not connected");
    this.#res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** Takes one `POST` of the client: `body` is what it carried, already read. */
  handlePost(body: unknown, res: ServerResponse): void {
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(body);
    } catch (error) {
      res.writeHead(400).end("Invalid message");
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    res.writeHead(202).end("Accepted");
    this.onmessage?.(message);
  }

  async close(): Promise<void> {
    this.#res.end();
    this.#reportClose();
  }

  #reportClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
