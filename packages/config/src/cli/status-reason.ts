import { displayPath, type PathContext } from "./format.js";
import type { InventoryEntry } from "./server-inventory.js";

/** What the CLI needs to word a status: where paths are relative to, and how to call `trust`. */
export interface ReasonContext extends PathContext {
  /** The command that approves this project, e.g. `mcp-rt-config trust`. */
  trustCommand: string;
}

/** One sentence on why an entry has its status, and what to do about it. */
export function statusReason(entry: InventoryEntry, context: ReasonContext): string {
  switch (entry.status) {
    case "active":
      return "starts in a new session";
    case "needs approval":
      return `a project-level server this folder's approval does not cover (never approved, or the project's servers changed since); review it, then run \`${context.trustCommand}\``;
    case "disabled": {
      const enabled = (entry.config as { enabled?: unknown } | undefined)?.enabled;
      return enabled === false
        ? "`enabled: false` in its config"
        : 'named in `"disabledServers"` of mcp-rt\'s own config (.mcp-rt/mcp.json); remove it there to enable it';
    }
    case "filtered":
      return "an Exa server, left out because the session uses its native Exa tool instead";
    case "shadowed": {
      const by = entry.shadowedBy;
      return by
        ? `${by.providerName} (${displayPath(by.path, context)}) defines the same name with higher priority; rename one of them to run both`
        : "another source defines the same name with higher priority";
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
