import type { ConfigIssue } from "../server-config.js";
import { displayPath, formatTable, plural } from "./format.js";
import {
  type ServerInventory,
  type ServerStatus,
  STATUSES,
  secretScrubber,
  type Transport,
} from "./server-inventory.js";
import { type ReasonContext, statusReason } from "./status-reason.js";

/** One row of `mcp-rt-config list --json`. */
export interface ListJsonServer {
  name: string;
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
}

/** The whole output of `mcp-rt-config list --json`. Fields are only ever added. */
export interface ListJson {
  version: 1;
  /** The folder the servers were discovered for. */
  cwd: string;
  servers: ListJsonServer[];
  /** Problems not tied to one server: unreadable files, bad syntax. */
  errors: ConfigIssue[];
}

/** The `list --json` document. */
export function listJson(inventory: ServerInventory, context: ReasonContext): ListJson {
  const scrub = secretScrubber(inventory.entries);
  return {
    version: 1,
    cwd: context.cwd,
    servers: inventory.entries.map((entry) => ({
      name: entry.name,
      status: entry.status,
      transport: entry.transport ?? null,
      provider: entry.source?.provider ?? null,
      providerName: entry.source?.providerName ?? null,
      level: entry.source?.level ?? null,
      path: entry.path,
      winner: entry.winner,
      shadowedBy: entry.shadowedBy
        ? {
            provider: entry.shadowedBy.provider,
            providerName: entry.shadowedBy.providerName,
            path: entry.shadowedBy.path,
          }
        : null,
      reason: scrub(statusReason(entry, context)),
      issues: entry.issues.map(scrub),
    })),
    errors: inventory.fileIssues.map((issue) => ({ ...issue, message: scrub(issue.message) })),
  };
}

/** The `list` table, with a note for every server that will not start and every file problem. */
export function formatList(inventory: ServerInventory, context: ReasonContext): string {
  const scrub = secretScrubber(inventory.entries);
  const out: string[] = [`MCP servers for ${context.cwd}`, ""];
  const { entries, fileIssues } = inventory;
  if (entries.length === 0) {
    out.push("No MCP servers found.");
  } else {
    out.push(
      formatTable(
        ["NAME", "TRANSPORT", "PROVIDER", "LEVEL", "FILE", "STATUS"],
        entries.map((entry) => [
          entry.name,
          entry.transport ?? "-",
          entry.source?.providerName ?? "-",
          entry.source?.level ?? "-",
          displayPath(entry.path, context),
          entry.status,
        ]),
      ),
    );
    const counts = new Map<ServerStatus, number>();
    for (const status of STATUSES) {
      const count = entries.filter((entry) => entry.status === status).length;
      if (count > 0) counts.set(status, count);
    }
    out.push(
      "",
      `${plural(entries.length, "entry", "entries")}: ${[...counts]
        .map(([status, count]) => `${count} ${status}`)
        .join(", ")}.`,
    );
    const notes = entries.filter((entry) => entry.status !== "active");
    if (notes.length > 0) {
      out.push("", "Why some do not start:");
      for (const entry of notes) {
        const where = [entry.source?.providerName, displayPath(entry.path, context)]
          .filter(Boolean)
          .join(", ");
        out.push(`  ${entry.name} (${where}): ${scrub(statusReason(entry, context))}`);
      }
    }
  }
  if (fileIssues.length > 0) {
    out.push("", "File problems:");
    for (const issue of fileIssues)
      out.push(`  ${displayPath(issue.path, context)}: ${scrub(issue.message)}`);
  }
  return `${out.join("\n")}\n`;
}
