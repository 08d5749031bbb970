import type { MCPToolCacheEra } from "@mcp-rt/cache";
import type { MCPEraVerdict } from "@mcp-rt/client";
import { McpRtError } from "@mcp-rt/config";

/**
 * How long a stored legacy verdict is passed on: past a day the server is
 * asked again (it may have been upgraded to 2026-07-28), on the process
 * that serves it. A stale modern verdict fails loudly instead, and is
 * replaced then.
 */
export const LEGACY_VERDICT_TTL_MS: number = 24 * 60 * 60 * 1000;

/** The stored verdict to connect with (no probe), or undefined to ask the server. */
export function verdictToPass(
  stored: MCPEraVerdict | MCPToolCacheEra | undefined,
  now: number = Date.now(),
): MCPEraVerdict | undefined {
  if (!stored) return undefined;
  if (stored.era === "legacy" && now - stored.decidedAt > LEGACY_VERDICT_TTL_MS) return undefined;
  return stored;
}

/**
 * True when the first list on a connection that adopted a stored modern
 * verdict failed the way a server that no longer speaks 2026-07-28 fails:
 * it answered with a JSON-RPC error or closed the connection.
 */
export function isStaleModernVerdict(
  connection: { era: string; eraDecision: { how: string } },
  error: unknown,
): boolean {
  if (connection.era !== "modern" || connection.eraDecision.how !== "stored") return false;
  return (
    McpRtError.isInstance(error) && (error.code === "PROTOCOL_ERROR" || error.code === "TRANSPORT_CLOSED")
  );
}
