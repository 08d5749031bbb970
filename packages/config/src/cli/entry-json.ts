import type { InventoryEntry, ServerStatus, Transport } from "./server-inventory.js";
import { type ReasonContext, statusReason } from "./status-reason.js";

/** What `list --json` and `explain --json` both say about one entry. */
export interface EntryJson {
  status: ServerStatus;
  transport: Transport | null;
  /** Provider id (`claude-code`), or null when only the file of an invalid entry is known. */
  provider: string | null;
  providerName: string | null;
  level: "user" | "project" | null;
  /** Absolute path of the file that defines it. */
  path: string;
  /** True for the entry the loader kept for this name (false for shadowed ones). */
  winner: boolean;
  shadowedBy: { provider: string; providerName: string; path: string } | null;
  /** Why it has this status, in words. */
  reason: string;
  /** Validation problems and unset variables. */
  issues: string[];
  /** For a `blocked` entry: whose policy (`mcp-rt`, `claude-code`, `codex`), the rule and the policy file; else null. */
  blockedBy: { policy: string; rule: string; policyFile: string } | null;
}

/** The {@link EntryJson} of one entry, its texts passed through `scrub` (which hides secrets). */
export function entryJson(
  entry: InventoryEntry,
  context: ReasonContext,
  scrub: (text: string) => string,
): EntryJson {
  const by = entry.shadowedBy;
  return {
    status: entry.status,
    transport: entry.transport ?? null,
    provider: entry.source?.provider ?? null,
    providerName: entry.source?.providerName ?? null,
    level: entry.source?.level ?? null,
    path: entry.path,
    winner: entry.winner,
    shadowedBy: by ? { provider: by.provider, providerName: by.providerName, path: by.path } : null,
    reason: scrub(statusReason(entry, context)),
    issues: entry.issues.map(scrub),
    blockedBy: entry.blockedBy ? { ...entry.blockedBy } : null,
  };
}
