import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { MODERN_PROTOCOL_VERSION } from "./era.js";

/**
 * A 2026-07-28 result without `resultType` is complete (SEP-2322: a client
 * MUST assume `"complete"` when it is absent). The SDK (2.4.0) refuses such
 * a result on a modern connection (`INVALID_RESULT`, `missing-resultType`),
 * so a modern connection's transport stamps `"complete"` on it before the
 * SDK reads it. Other messages, and every message of a legacy connection,
 * pass unchanged.
 */
export function completeByDefault(
  message: JSONRPCMessage,
  protocolVersion: string | undefined,
): JSONRPCMessage {
  if (protocolVersion !== MODERN_PROTOCOL_VERSION || !("result" in message)) return message;
  const result = message.result as Record<string, unknown> | null;
  if (result === null || typeof result !== "object" || Array.isArray(result) || "resultType" in result) {
    return message;
  }
  return { ...message, result: { ...result, resultType: "complete" } };
}
