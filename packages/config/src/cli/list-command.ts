import type { ConfigIssue } from "../model/config-issue.js";
import { displayPath } from "../util/display-path.js";
import { plural } from "../util/plural.js";
import { type EntryJson, entryJson } from "./entry-json.js";
import { formatTable } from "./format.js";
import { type ServerInventory, type ServerStatus, STATUSES, secretScrubber } from "./server-inventory.js";
import { APPROVAL, APPROVAL_PLURAL, type ReasonContext, statusReason } from "./status-reason.js";

/** One row of `mcp-rt-config list --json`. */
export interface ListJsonServer extends EntryJson {
  name: string;
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
  const scrub = secretScrubber(inventory.entries, context.env);
  return {
    version: 1,
    cwd: context.cwd,
    servers: inventory.entries.map((entry) => ({ name: entry.name, ...entryJson(entry, context, scrub) })),
    errors: inventory.fileIssues.map((issue) => ({ ...issue, message: scrub(issue.message) })),
  };
}

/** The `list` table, with a note for every server that will not start and every file problem. */
export function formatList(inventory: ServerInventory, context: ReasonContext): string {
  const scrub = secretScrubber(inventory.entries, context.env);
  const out: string[] = [`MCP servers for ${context.cwd}`, ""];
  const { entries, fileIssues } = inventory;
  if (entries.length === 0) {
    out.push(
      "No MCP servers found.",
      "",
      "Looked in the user-level and project files of mcp-rt, Claude Code, Claude Desktop, Codex,",
      "Antigravity, Gemini CLI, Cursor, Windsurf and VS Code. To add one for every project, write",
      '~/.mcp-rt/mcp.json: { "mcpServers": { "<name>": { "command": "npx", "args": ["-y", "<package>"] } } }',
    );
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
    const notes = entries.filter((entry) => entry.status !== "active" && entry.status !== "needs approval");
    const waiting = entries.filter((entry) => entry.status === "needs approval");
    if (notes.length > 0 || waiting.length > 0) {
      out.push("", "Why some do not start:");
      for (const entry of notes) {
        const where = [entry.source?.providerName, displayPath(entry.path, context)]
          .filter(Boolean)
          .join(", ");
        out.push(`  ${entry.name} (${where}): ${scrub(statusReason(entry, context))}`);
      }
      // One note for all of them: they are approved together.
      if (waiting.length > 0) {
        const names = waiting.map((entry) => entry.name).join(", ");
        out.push(
          `  ${names}: ${waiting.length === 1 ? APPROVAL : APPROVAL_PLURAL}; ` +
            `review ${waiting.length === 1 ? "it" : "them"} (\`mcp-rt-config explain <name>\`), then run \`${context.trustCommand}\``,
        );
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
