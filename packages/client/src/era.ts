import type { MCPProtocolSetting } from "@mcp-rt/config";
import type { PriorDiscovery } from "@modelcontextprotocol/client";

/**
 * An MCP era: `"modern"` is 2026-07-28 and later (no `initialize`;
 * `server/discover`, and `_meta` on every request), `"legacy"` is the
 * `initialize` handshake of 2025-11-25 and before.
 */
export type MCPEra = "modern" | "legacy";

/**
 * What a connection learnt about its server's era: kept (in the tool cache)
 * and handed back as `ConnectOptions.prior`, so the next connect sends no
 * probe. Plain JSON.
 */
export interface MCPEraVerdict {
  era: MCPEra;
  /** The revision agreed: `"2026-07-28"`, `"2025-11-25"`… */
  protocolVersion: string;
  /** The server's `server/discover` result (modern only), as it sent it. */
  discover?: Record<string, unknown> | undefined;
  /** When the era was found out (ms since the epoch): a legacy verdict goes stale. */
  decidedAt: number;
}

/** How a connection's era was decided, for `/mcp test`, `explain` and events. */
export interface MCPEraDecision {
  /**
   * `setting`: the config's `protocol` named the era; `probe`: the server
   * answered `server/discover` (a result, or an error meaning legacy);
   * `stored`: a verdict from an earlier connect, no probe sent; `fallback`:
   * the probe got no usable answer and the server was started again
   * straight into `initialize`.
   */
  how: "setting" | "probe" | "stored" | "fallback";
  /** One sentence saying what happened, e.g. `the server answered server/discover with -32601, so it speaks the legacy era`. */
  text: string;
}

/** The revision that starts the modern era, and the only modern one mcp-rt speaks. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/** `2026-07-28`, or `2025-11-25 (legacy)`. */
export function describeEra(verdict: Pick<MCPEraVerdict, "era" | "protocolVersion">): string {
  return verdict.era === "modern" ? verdict.protocolVersion : `${verdict.protocolVersion} (legacy)`;
}

/** How a connect that adopted a stored verdict decided its era. */
export function storedDecision(verdict: MCPEraVerdict, now: number = Date.now()): MCPEraDecision {
  const age = describeAge(now - verdict.decidedAt);
  return { how: "stored", text: `a verdict stored ${age} ago says ${describeEra(verdict)}; no probe sent` };
}

/** The start of the decision of a probe that followed a stored verdict the server refused. */
export function staleVerdictText(verdict: MCPEraVerdict): string {
  return `the stored verdict (${describeEra(verdict)}) no longer fits: the server rejected the handshake, so it was asked again`;
}

function describeAge(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 1) return "less than a minute";
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}

/**
 * The SDK's `prior` for a stored verdict the config's `protocol` agrees with:
 * `{ kind: "legacy" }` (straight to `initialize`) or `{ kind: "modern",
 * discover }` (zero round trips); none when there is no verdict, the setting
 * names the other era, or a modern verdict lacks its discover result.
 */
export function priorFor(
  verdict: MCPEraVerdict | undefined,
  setting: MCPProtocolSetting | undefined,
): PriorDiscovery | undefined {
  if (!verdict) return undefined;
  if (setting === "legacy" && verdict.era !== "legacy") return undefined;
  if (setting === MODERN_PROTOCOL_VERSION && verdict.era !== "modern") return undefined;
  if (verdict.era === "legacy") return { kind: "legacy" };
  return verdict.discover ? { kind: "modern", discover: verdict.discover as never } : undefined;
}
