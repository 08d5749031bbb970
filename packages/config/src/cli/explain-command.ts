import { redactServerConfig } from "../redact.js";
import type { ProjectChange } from "../types.js";
import { displayPath } from "../util/display-path.js";
import { changeWords } from "./approval-summary.js";
import { type EntryJson, entryJson } from "./entry-json.js";
import { formatTable } from "./format.js";
import {
  type InventoryEntry,
  type ServerInventory,
  type ServerStatus,
  secretScrubber,
} from "./server-inventory.js";
import { commandFields, type ReasonContext, statusReason } from "./status-reason.js";

/** One source's entry in `mcp-rt-config explain --json`: the `list --json` fields but `name`, and its config. */
export interface ExplainJsonEntry extends EntryJson {
  /**
   * The config after `${…}` expansion when `configExpanded`, else as its file
   * has it; secrets are `***` unless `--show-secrets`, and so a value an
   * expansion changed is shown as the file writes it (`${TOKEN}`). Null when unknown.
   */
  config: unknown;
  configExpanded: boolean;
  /** `env.X` / `headers.Y` whose value is a `!command`, run at connect time (not by explain). */
  commands: string[];
  /** The env file it reads (absolute), or null. */
  envFile: string | null;
  /** What a project not approved yet would change about this entry, in words, or null. */
  pendingChange: string | null;
  /** The MCP era setting it connects with (`auto` unless mcp-rt's own file says otherwise), or null when unknown. */
  protocol: string | null;
}

/** The whole output of `mcp-rt-config explain <name> --json`. Fields are only ever added. */
export interface ExplainJson {
  version: 1;
  cwd: string;
  name: string;
  /** The status of the entry that counts (the winner's). */
  status: ServerStatus;
  /** False when secrets are shown as `***`. */
  secretsShown: boolean;
  /** Every source that defines the name, the winner first. */
  entries: ExplainJsonEntry[];
}

/** Options of the `explain` formatters. */
export interface ExplainContext extends ReasonContext {
  showSecrets: boolean;
}

/** What `explain` tells about: a server name and its entries in every source ({@link entriesOf}). */
export interface ExplainedServer {
  name: string;
  entries: readonly InventoryEntry[];
}

/** The entries of `name`, or `undefined` when no source defines it. */
export function entriesOf(inventory: ServerInventory, name: string): InventoryEntry[] | undefined {
  const entries = inventory.entries.filter((entry) => entry.name === name);
  return entries.length > 0 ? entries : undefined;
}

/** Every name any source defines, sorted, once each. */
export function knownNames(inventory: ServerInventory): string[] {
  return [...new Set(inventory.entries.map((entry) => entry.name))].sort();
}

function overallStatus(entries: readonly InventoryEntry[]): ServerStatus {
  return (entries.find((entry) => entry.winner) ?? entries[0])?.status ?? "invalid";
}

function shownConfig(
  entry: InventoryEntry,
  context: ExplainContext,
  scrub: (text: string) => string,
): unknown {
  if (entry.config === undefined) return null;
  if (context.showSecrets) return entry.config;
  const redacted = redactServerConfig(
    entry.config,
    entry.template === undefined ? {} : { template: entry.template },
  );
  return mapStrings(redacted, scrub);
}

// Every string in a JSON-like value passed through `fn`, so secrets that got in from the environment are hidden too.
function mapStrings(value: unknown, fn: (text: string) => string): unknown {
  if (typeof value === "string") return fn(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, fn));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, fn)]));
}

/** The `explain --json` document for the entries of one name. */
export function explainJson({ name, entries }: ExplainedServer, context: ExplainContext): ExplainJson {
  const scrub = context.showSecrets ? (text: string) => text : secretScrubber(entries, context.env);
  return {
    version: 1,
    cwd: context.cwd,
    name,
    status: overallStatus(entries),
    secretsShown: context.showSecrets,
    entries: entries.map((entry) => ({
      ...entryJson(entry, context, scrub),
      config: shownConfig(entry, context, scrub),
      configExpanded: entry.configExpanded,
      commands: commandFields(entry.config),
      envFile: entry.envFile ?? null,
      pendingChange: entry.pendingChange ? pendingChangeText(entry.pendingChange, context) : null,
      protocol: entry.transport ? protocolSetting(entry.config) : null,
    })),
  };
}

/** The entry's `protocol` setting, `auto` when it has none. */
function protocolSetting(config: unknown): string {
  const value = (config as { protocol?: unknown } | undefined)?.protocol;
  return typeof value === "string" ? value : "auto";
}

/** The setting and what it does on this transport. */
function protocolText(setting: string, transport: string): string {
  if (transport === "sse") return `${setting} (the SSE transport speaks only the legacy era, initialize)`;
  if (setting === "legacy") return "legacy (initialize, 2025-11-25 and before; no probe)";
  if (setting === "2026-07-28")
    return "2026-07-28 (only that revision; a server that does not speak it fails)";
  return `${setting} (asks the server with server/discover, else initialize; the answer is kept in the tool cache)`;
}

/** What a project not approved yet would change about a user's entry, as a sentence. */
export function pendingChangeText(change: ProjectChange, context: ReasonContext): string {
  return `the project's ${displayPath(change.path, context)} ${changeWords(change.change)}; that waits until the project is approved (\`${context.trustCommand}\`)`;
}

/** `explain` as text: where the name is defined, then each entry's config, problems and status. */
export function formatExplain({ name, entries }: ExplainedServer, context: ExplainContext): string {
  const scrub = context.showSecrets ? (text: string) => text : secretScrubber(entries, context.env);
  const out: string[] = [
    `Server "${name}": ${overallStatus(entries)}`,
    "",
    "Defined in (the one that counts first):",
  ];
  const table = formatTable(
    ["", "PROVIDER", "LEVEL", "FILE", "STATUS"],
    entries.map((entry) => [
      entry.winner ? "*" : "",
      entry.source?.providerName ?? "-",
      entry.source?.level ?? "-",
      displayPath(entry.path, context),
      entry.status,
    ]),
  );
  out.push(...table.split("\n").map((line) => `  ${line}`));
  for (const entry of entries) {
    const where = [entry.source?.providerName, displayPath(entry.path, context)].filter(Boolean).join(", ");
    out.push("", `${where}: ${entry.status}`);
    if (entry.status !== "invalid") out.push(`  why: ${scrub(statusReason(entry, context))}`);
    if (entry.pendingChange) out.push(`  held back: ${pendingChangeText(entry.pendingChange, context)}`);
    if (entry.transport) {
      out.push(`  transport: ${entry.transport}`);
      out.push(`  protocol: ${protocolText(protocolSetting(entry.config), entry.transport)}`);
    }
    if (entry.envFile !== undefined) {
      const unread = entry.status === "needs approval" ? " (not read until the project is approved)" : "";
      out.push(`  env file: ${displayPath(entry.envFile, context)}${unread}`);
    }
    if (entry.config === undefined) {
      out.push("  config: not available");
    } else {
      const label = entry.configExpanded ? "config (variables expanded)" : "config (as its file has it)";
      const secrets = context.showSecrets
        ? "secrets shown"
        : "secrets as *** and variables as written, --show-secrets to reveal";
      out.push(`  ${label}, ${secrets}:`);
      const json = JSON.stringify(shownConfig(entry, context, scrub), null, 2);
      out.push(...json.split("\n").map((line) => `    ${line}`));
    }
    const commands = commandFields(entry.config);
    if (commands.length > 0) out.push(`  runs a command at connect time for: ${commands.join(", ")}`);
    if (entry.issues.length > 0) {
      out.push("  problems:");
      for (const issue of entry.issues) out.push(`    - ${scrub(issue)}`);
    } else if (entry.configExpanded || entry.status === "filtered") {
      out.push("  problems: none");
    }
  }
  return `${out.join("\n")}\n`;
}
