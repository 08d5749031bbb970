import { errorMessage } from "@mcp-rt/config/util";
import { deserializeMessage, type JSONRPCMessage } from "@modelcontextprotocol/client";

/** A stdout line that is not a JSON-RPC message, and why. */
export class StdoutNoise {
  readonly error: unknown;
  /** Why, in at most 300 characters. */
  readonly reason: string;
  constructor(error: unknown) {
    this.error = error;
    const text = errorMessage(error);
    this.reason = text.length > 300 ? `${text.slice(0, 299)}…` : text;
  }
}

/**
 * The stdout of a stdio server, cut into JSON-RPC messages, one a line, with
 * the SDK's `deserializeMessage`. Unlike the SDK's `ReadBuffer` (which skips
 * a line that is not JSON without a word), a line that is not a JSON-RPC
 * message is handed back as such: a server that logs to stdout is worth
 * telling its user about.
 */
export class StdoutLines {
  readonly #maxBytes: number;
  #buffer: Buffer | undefined;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** Adds a chunk; throws (and forgets what it held) when that would hold more than `maxBytes` unread. */
  append(chunk: Buffer): void {
    if ((this.#buffer?.length ?? 0) + chunk.length > this.#maxBytes) {
      this.clear();
      throw new RangeError(`more than ${this.#maxBytes} bytes without a line end`);
    }
    this.#buffer = this.#buffer ? Buffer.concat([this.#buffer, chunk]) : chunk;
  }

  /** The next whole line: a message, a {@link StdoutNoise} for a line that is not one, or `null` when no line is complete. */
  next(): JSONRPCMessage | StdoutNoise | null {
    const buffer = this.#buffer;
    if (!buffer) return null;
    const end = buffer.indexOf(10);
    if (end === -1) return null;
    const line = buffer.toString("utf8", 0, end).replace(/\r$/, "");
    this.#buffer = end + 1 === buffer.length ? undefined : buffer.subarray(end + 1);
    try {
      return deserializeMessage(line);
    } catch (error) {
      return new StdoutNoise(error);
    }
  }

  clear(): void {
    this.#buffer = undefined;
  }
}
