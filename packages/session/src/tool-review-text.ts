import { plural } from "@mcp-rt/config/util";
import {
  type MCPHeldToolReview,
  type MCPPoisoningFinding,
  type MCPServerChange,
  type MCPToolDiffEntry,
  type MCPToolReview,
  type MCPToolsHeld,
  visibleText,
} from "@mcp-rt/manager";

/** The longest value a diff line shows whole. */
const MAX_VALUE = 240;
/** Words of an unchanged run kept on each side of a change. */
const CONTEXT_WORDS = 6;

const cut = (text: string, max = MAX_VALUE): string => {
  const shown = visibleText(text.replace(/\s+/g, " ").trim());
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
};

/** An unchanged run, shortened to the words around the changes (`…` where words were left out). */
function context(text: string, first: boolean, last: boolean): string {
  const words = text.trim().split(/\s+/);
  if (words.length <= CONTEXT_WORDS * 2) return text;
  const head = first ? [] : words.slice(0, CONTEXT_WORDS);
  const tail = last ? [] : words.slice(-CONTEXT_WORDS);
  return ` ${[...head, "…", ...tail].join(" ")} `;
}

/** A changed text, word by word: `[-removed-]` and `{+added+}` among the words kept around them. */
function wordsLine(entry: MCPToolDiffEntry): string {
  const runs = entry.words ?? [];
  return runs
    .map((run, index) => {
      const text = visibleText(run.text);
      if (run.op === "removed") return `[-${text.trim()}-] `;
      if (run.op === "added") return `{+${text.trim()}+} `;
      return context(text, index === 0, index === runs.length - 1);
    })
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

/** One difference of a held tool, on one line. */
export function diffLine(entry: MCPToolDiffEntry): string {
  if (entry.change === "added") return `+ ${entry.path}: ${cut(entry.after ?? "")}`;
  if (entry.change === "removed") return `- ${entry.path}: ${cut(entry.before ?? "")}`;
  if (entry.words) return `~ ${entry.path}: ${wordsLine(entry)}`;
  return `~ ${entry.path}: ${cut(entry.before ?? "", 100)} → ${cut(entry.after ?? "", 100)}`;
}

/** A finding, on one line: its rule, where, why, and the text around it. */
export function findingLine(finding: MCPPoisoningFinding): string {
  const mark = finding.strength === "hold" ? "⛔" : "⚠";
  const where =
    finding.subject === "instructions"
      ? "instructions"
      : `${finding.subject} ${finding.name} ${finding.path}`;
  return `${mark} ${finding.rule} (${where}): ${finding.reason}: ${cut(finding.excerpt, 160)}`;
}

/** Why a tool is held, in words. */
function reasonsOf(tool: MCPHeldToolReview): string {
  const words: Record<string, string> = {
    new: "new",
    changed: "changed",
    "server-changed": "the server changed",
    unverified: "its approval is not signed with this installation's key",
    poisoned: "signs of poisoning",
  };
  return tool.reasons.map((reason) => words[reason] ?? reason).join(", ");
}

/** What changed of the server itself, one line per change. */
export function serverChangeLines(change: MCPServerChange | undefined): string[] {
  const lines: string[] = [];
  if (change?.serverInfoName) {
    lines.push(
      `server: calls itself "${change.serverInfoName.after}", was "${change.serverInfoName.before}"`,
    );
  }
  if (change?.target)
    lines.push(`server: runs ${cut(change.target.after)}, was ${cut(change.target.before)}`);
  return lines;
}

/** A held tool as the user reviews it: its name and why, each difference, each finding. */
export function heldToolLines(tool: MCPHeldToolReview): string[] {
  const lines = [`✋ ${tool.name} (${reasonsOf(tool)}${tool.kept ? "; kept held" : ""})`];
  const shown = tool.approved ? tool.diff : tool.diff.filter((entry) => entry.path !== "inputSchema");
  for (const entry of shown) lines.push(`   ${diffLine(entry)}`);
  if (!tool.approved && tool.diff.some((entry) => entry.path === "inputSchema")) {
    const schema = tool.definition.inputSchema as { properties?: object };
    const names = Object.keys(schema.properties ?? {});
    lines.push(`   + inputSchema: ${names.length > 0 ? `parameters ${names.join(", ")}` : "no parameters"}`);
  }
  for (const finding of tool.findings) lines.push(`   ${findingLine(finding)}`);
  return lines;
}

/** `/mcp review <name>`: the server's held tools with their diffs, what else was found, and how to decide. */
export function reviewText(review: MCPToolReview): string {
  const { server, held } = review;
  const policy = `tool changes: ${review.toolChanges}, poisoning: ${review.poisoning}${review.store ? `; approvals in ${review.store}` : "; no approvals store: changes are not checked"}`;
  const lines = [
    held.length === 0
      ? `${server}: no tool is held (${policy}).`
      : `${server}: ${plural(held.length, "tool")} held until you approve (${policy})`,
    ...serverChangeLines(review.serverChange).map((line) => `  ${line}`),
  ];
  for (const tool of held) lines.push(...heldToolLines(tool).map((line) => `  ${line}`));
  const heldNames = new Set(held.map((tool) => tool.name));
  const others = review.findings.filter(
    (finding) => finding.subject !== "tool" || !heldNames.has(finding.name ?? ""),
  );
  if (others.length > 0) {
    lines.push("  Also found (not held):", ...others.map((finding) => `    ${findingLine(finding)}`));
  }
  if (held.length > 0) {
    lines.push(
      `Approve: /mcp review ${server} approve [tool…]   Keep holding: /mcp review ${server} hold [tool…]`,
    );
  }
  return lines.join("\n");
}

/**
 * The notice of a `tools:held` event: which tools of which server, why, and
 * the command to review them. Under `"ask"` it asks for a decision and shows
 * each difference; under `"hold"` it says what is held in one line.
 */
export function heldNotice(event: MCPToolsHeld): string {
  const names = event.held.map((tool) => `${tool.name} (${reasonsOf(tool)})`).join(", ");
  const head = `MCP server "${event.name}": ${plural(event.held.length, "tool")} held until you approve: ${names}`;
  if (event.toolChanges !== "ask") return `${head}. Review: /mcp review ${event.name}`;
  const lines = [
    `${head}.`,
    ...serverChangeLines(event.serverChange).map((line) => `  ${line}`),
    ...event.held.flatMap((tool) => heldToolLines(tool).map((line) => `  ${line}`)),
    `Approve with /mcp review ${event.name} approve, or keep holding with /mcp review ${event.name} hold.`,
  ];
  return lines.join("\n");
}
