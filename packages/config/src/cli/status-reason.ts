import { displayPath, type PathContext } from "../util/display-path.js";
import type { InventoryEntry } from "./server-inventory.js";

/** What the CLI needs to word a status: where paths are relative to, and how to call `trust`. */
export interface ReasonContext extends PathContext {
  /** The command that approves this project, e.g. `mcp-rt-config trust`. */
  trustCommand: string;
  /**
   * Why a `filtered` entry is left out, in the caller's words, by the reason
   * its `reserve` rule gave. @default a sentence naming the reason
   */
  reserveReasons?: Record<string, string>;
  /**
   * The environment the configs were expanded with: the values it gave them,
   * and those of its secret-named variables, are hidden in messages.
   */
  env?: Record<string, string | undefined>;
}

/** Whose policy, as a person reads it. */
export const POLICY_NAMES: Record<NonNullable<InventoryEntry["blockedBy"]>["policy"], string> = {
  "mcp-rt": "mcp-rt's policy",
  "claude-code": "Claude Code's managed policy",
  codex: "Codex's requirements",
};

/** Why a project-level server waits, without what to do about it. */
export const APPROVAL =
  "a project-level server not approved for this folder yet, or changed since the approval";

/** {@link APPROVAL} for several servers. */
export const APPROVAL_PLURAL =
  "project-level servers not approved for this folder yet, or changed since the approval";

/** One sentence on why an entry has its status, and what to do about it. */
export function statusReason(entry: InventoryEntry, context: ReasonContext): string {
  switch (entry.status) {
    case "active":
      return "starts in a new session";
    case "needs approval":
      return `${APPROVAL}; review it, then run \`${context.trustCommand}\``;
    case "blocked": {
      const by = entry.blockedBy;
      if (by === undefined) return "forbidden by a policy";
      return `forbidden by ${POLICY_NAMES[by.policy]} (${displayPath(by.policyFile, context)}): ${by.rule}; no config file or option here overrides it`;
    }
    case "disabled": {
      const enabled = (entry.config as { enabled?: unknown } | undefined)?.enabled;
      if (enabled === false && entry.disabledBy === "disabled") return "`disabled: true` in its config";
      if (enabled === false && entry.disabledBy !== undefined) {
        return `turned off in ${entry.source?.providerName ?? "its client"}'s settings (${entry.disabledBy})`;
      }
      return enabled === false
        ? "`enabled: false` in its config"
        : "named in `\"disabledServers\"` of mcp-rt's own config (~/.mcp-rt/mcp.json or the project's .mcp-rt/mcp.json); remove it there to enable it";
    }
    case "filtered": {
      const reason = entry.filteredBy ?? "unknown";
      const words = context.reserveReasons;
      const own = words !== undefined && Object.hasOwn(words, reason) ? words[reason] : undefined;
      return own ?? `held back by the caller's \`reserve\` rule (reason "${reason}")`;
    }
    case "shadowed": {
      const by = entry.shadowedBy;
      if (!by) return "another source defines the same name with higher priority";
      // Within Claude Code a user-level winner is always its local scope
      // (projects[<folder>] of ~/.claude.json): it beats both .mcp.json and
      // the top-level servers of the same file.
      const localScope =
        by.provider === "claude-code" && entry.source?.provider === "claude-code" && by.level === "user";
      const where = localScope
        ? `Claude Code's local scope for this folder (projects[…] in ${displayPath(by.path, context)})`
        : by.path === entry.path
          ? `a higher-priority entry in the same file (${displayPath(by.path, context)})`
          : `${by.providerName} (${displayPath(by.path, context)})`;
      return `${where} defines the same name with higher priority; rename one of them to run both`;
    }
    case "invalid":
      return entry.issues.join("; ") || "invalid";
  }
}

/** The `env.X` / `headers.Y` fields whose value is a `!command`, run at connect time. */
export function commandFields(config: unknown): string[] {
  if (config === null || typeof config !== "object") return [];
  const fields: string[] = [];
  for (const field of ["env", "headers"] as const) {
    const values = (config as Record<string, unknown>)[field];
    if (values === null || typeof values !== "object") continue;
    for (const [key, value] of Object.entries(values)) {
      if (typeof value === "string" && value.startsWith("!") && !value.startsWith("!!")) {
        fields.push(`${field}.${key}`);
      }
    }
  }
  return fields;
}
