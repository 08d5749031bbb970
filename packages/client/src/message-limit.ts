import { randomUUID } from "node:crypto";
import { type JSONRPCMessage, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client";

import { DEFAULT_MAX_MESSAGE_BYTES } from "./max-message-bytes.js";

export { DEFAULT_MAX_MESSAGE_BYTES };

// Marks the errors this module makes, so that no server can pass its own off as one.
const MARK = randomUUID();

/** Checks a `maxMessageBytes` option: a positive number of bytes. */
export function checkMaxMessageBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_MESSAGE_BYTES;
  if (typeof value !== "number" || !(value > 0)) {
    throw new TypeError(`maxMessageBytes must be a positive number of bytes, got ${String(value)}`);
  }
  return value;
}

/** What a message past the limit is called in every error: "a message larger than 10485760 bytes (limit maxMessageBytes)". */
export function tooLargeText(limit: number): string {
  return `a message larger than ${limit} bytes (limit maxMessageBytes)`;
}

/**
 * The JSON-RPC error that stands in for the answer to request `id` when the
 * answer was larger than `limit`: the request fails at once with
 * `LIMIT_EXCEEDED` instead of waiting for its timeout.
 */
export function tooLargeResponse(id: string | number, limit: number): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: ProtocolErrorCode.InternalError,
      message: `the server sent ${tooLargeText(limit)}; it was not read`,
      data: { mcpRtLimit: MARK, limit },
    },
  };
}

/** For an error made by {@link tooLargeResponse}: its text; else undefined. */
export function tooLargeReasonOf(error: unknown): string | undefined {
  if (!(error instanceof ProtocolError)) return undefined;
  const data = error.data as { mcpRtLimit?: unknown; limit?: unknown } | undefined;
  if (data?.mcpRtLimit !== MARK || typeof data.limit !== "number") return undefined;
  return `the server sent ${tooLargeText(data.limit)}; it was not read`;
}
