import type { ConfigIssue } from "../model/config-issue.js";
import type { SourceMeta } from "../model/source-meta.js";
import { expansionReferences, scrubSecrets, secretValues } from "../redact.js";
import { redactText } from "../redact-text.js";
import type { BlockedServer, DiscoveredServer, LoadConfigsResult, ProjectChange } from "../types.js";
import { containsToken } from "../whole-token.js";

/** Why a server entry will, or will not, start. */
export type ServerStatus =
  | "active"
  | "blocked"
  | "disabled"
  | "filtered"
  | "shadowed"
  | "needs approval"
  | "invalid";

/** How a server is reached: `http` also covers URL configs without `type` (HTTP with SSE fallback). */
export type Transport = "stdio" | "http" | "sse";

/** One place that defines a server name, and what became of it. */
export interface InventoryEntry {
  name: string;
  status: ServerStatus;
  /** `undefined` when the only thing known is the file of an invalid entry. */
  source: SourceMeta | undefined;
  /** The file the entry is in. */
  path: string;
  transport: Transport | undefined;
  /** The config: after `${…}` expansion when `configExpanded`, else as its file has it; `undefined` when unknown. */
  config: unknown;
  /** True when `config` is the loader's expanded, validated config (active, needs approval). */
  configExpanded: boolean;
  /**
   * The entry as its file has it, placeholders not expanded, when known: what
   * an expanded `config` is shown as where an expansion changed it.
   */
  template?: unknown;
  /** True for the one entry per name that the loader kept. */
  winner: boolean;
  /** For `shadowed`: the source whose entry of the same name wins. */
  shadowedBy: SourceMeta | undefined;
  /** Validation problems and unset variables. */
  issues: string[];
  /**
   * The client setting that turned a `disabled` entry off, when it is not an
   * `enabled: false` of its own (`disabled`, Claude's `disabledMcpjsonServers`,
   * Gemini's `mcp.excluded`…).
   */
  disabledBy?: string;
  /** For `filtered`: the reason the loader's `reserve` rule gave. */
  filteredBy?: string;
  /** For `blocked`: whose policy forbids it, the rule and the policy file. */
  blockedBy?: Pick<BlockedServer, "policy" | "rule" | "policyFile">;
  /** The env file it reads (or, waiting for approval, would read). */
  envFile?: string;
  /** What a project not approved yet would change about this (user's) entry. */
  pendingChange?: ProjectChange;
}

/** What `list` and `explain` print: every entry of every name, plus file-level problems. */
export interface ServerInventory {
  entries: InventoryEntry[];
  /** Problems not tied to one server (unreadable file, bad syntax). */
  fileIssues: ConfigIssue[];
}

/** Extra knowledge the loader result alone does not carry. */
export interface InventoryExtras {
  /** The entries as each source read them, to know the transport of servers that will not start. */
  discovered?: readonly DiscoveredServer[];
}

/** Every status, in the order the CLI shows them. */
export const STATUSES: readonly ServerStatus[] = [
  "active",
  "needs approval",
  "blocked",
  "disabled",
  "filtered",
  "invalid",
  "shadowed",
];

/** The transport a config uses, if it is recognisably a server config. */
export function transportOf(config: unknown): Transport | undefined {
  if (config === null || typeof config !== "object") return undefined;
  const { command, url, type } = config as Record<string, unknown>;
  if (typeof command === "string" || type === "stdio") return "stdio";
  if (type === "sse") return "sse";
  if (typeof url === "string" || type === "http") return "http";
  return undefined;
}

/** Gathers every entry of a loader result into one list, winners first within each name. */
export function buildInventory(result: LoadConfigsResult, extras: InventoryExtras = {}): ServerInventory {
  const discovered = extras.discovered ?? [];
  const findDiscovered = (name: string, source: SourceMeta | undefined, path: string) =>
    discovered.find(
      (entry) =>
        entry.name === name &&
        entry.source.path === path &&
        (source === undefined || entry.source.provider === source.provider),
    );
  const findRaw = (name: string, source: SourceMeta | undefined, path: string): unknown =>
    findDiscovered(name, source, path)?.config;

  const entries: InventoryEntry[] = [];
  const add = (
    name: string,
    status: ServerStatus,
    source: SourceMeta,
    config: { value: unknown; expanded: boolean },
    shadowedBy?: SourceMeta,
  ): void => {
    const template = config.expanded ? findRaw(name, source, source.path) : config.value;
    entries.push({
      name,
      status,
      source,
      path: source.path,
      transport: transportOf(config.value),
      config: config.value,
      configExpanded: config.expanded,
      template,
      winner: status !== "shadowed",
      shadowedBy,
      issues: [],
    });
  };

  const raw = (name: string, source: SourceMeta) => ({
    value: findRaw(name, source, source.path),
    expanded: false,
  });
  const loaded = (config: unknown) => ({ value: config, expanded: true });
  const last = (): InventoryEntry | undefined => entries.at(-1);
  for (const [name, config] of Object.entries(result.configs)) {
    const source = result.sources[name];
    if (!source) continue;
    add(name, "active", source, loaded(config));
    const envFile = result.envFiles?.[name];
    const added = last();
    if (envFile !== undefined && added !== undefined) added.envFile = envFile;
  }
  for (const entry of result.needsApproval) {
    const config = entry.config;
    add(
      entry.name,
      "needs approval",
      entry.source,
      config === undefined ? raw(entry.name, entry.source) : loaded(config),
    );
    const added = last();
    if (entry.envFile !== undefined && added !== undefined) added.envFile = entry.envFile;
  }
  for (const { name, source, policy, rule, policyFile } of result.blocked ?? []) {
    add(name, "blocked", source, raw(name, source));
    const added = last();
    if (added !== undefined) added.blockedBy = { policy, rule, policyFile };
  }
  for (const entry of result.disabled) {
    add(entry.name, "disabled", entry.source, raw(entry.name, entry.source));
    const by = findDiscovered(entry.name, entry.source, entry.source.path)?.fieldNames?.enabled;
    const added = entries.at(-1);
    if (by !== undefined && added !== undefined) added.disabledBy = by;
  }
  for (const entry of result.filtered) {
    add(entry.name, "filtered", entry.source, raw(entry.name, entry.source));
    const added = entries.at(-1);
    if (added !== undefined) added.filteredBy = entry.reason;
  }
  for (const entry of result.shadowed) {
    add(entry.name, "shadowed", entry.source, raw(entry.name, entry.source), entry.by);
  }

  for (const change of result.pendingChanges ?? []) {
    const changed = entries.find(
      (entry) =>
        entry.name === change.name &&
        entry.path === change.source.path &&
        (entry.status === "active" || entry.status === "disabled"),
    );
    if (changed !== undefined) changed.pendingChange = change;
  }

  const fileIssues: ConfigIssue[] = [];
  for (const issue of result.errors) {
    if (issue.server === undefined) {
      fileIssues.push(issue);
      continue;
    }
    const known = entries.find((entry) => entry.name === issue.server && entry.path === issue.path);
    if (known) {
      known.issues.push(issue.message);
      continue;
    }
    const found = discovered.find((entry) => entry.name === issue.server && entry.source.path === issue.path);
    entries.push({
      name: issue.server,
      status: "invalid",
      source: found?.source,
      path: issue.path,
      transport: transportOf(found?.config),
      config: found?.config,
      configExpanded: false,
      ...(found === undefined ? {} : { template: found.config }),
      winner: false,
      shadowedBy: undefined,
      issues: [issue.message],
    });
  }

  // An invalid entry counts as the winner only when no valid entry of its name started in its place.
  for (const entry of entries) {
    if (entry.status !== "invalid") continue;
    const others = entries.filter((other) => other.name === entry.name && other !== entry);
    entry.winner =
      !others.some((other) => other.winner) &&
      !result.shadowed.some((s) => s.name === entry.name && s.source.path === entry.path);
  }

  entries.sort(
    (a, b) =>
      compare(a.name, b.name) ||
      Number(b.winner) - Number(a.winner) ||
      STATUSES.indexOf(a.status) - STATUSES.indexOf(b.status),
  );
  return { entries, fileIssues };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A function that hides, in any text, the secret values of the given entries'
 * configs where they stand as whole tokens (validation messages quote the
 * values they reject), but never an entry's own name, and whatever
 * `redactText` recognises (URL credentials, token shapes); what `env` gave
 * their placeholders, and the values of its secret-named variables, are
 * shown as the reference (`${NAME}`).
 */
export function secretScrubber(
  entries: readonly InventoryEntry[],
  env?: Record<string, string | undefined>,
): (text: string) => string {
  // A server's own name stays readable, even where a value of its config reads the same.
  const secrets = [
    ...new Set(
      entries.flatMap((entry) =>
        secretValues(entry.config).filter((secret) => !containsToken(entry.name, secret)),
      ),
    ),
  ];
  const references = new Map<string, string>();
  for (const entry of entries) {
    const options = {
      template: entry.template,
      ...(env ? { env } : {}),
    };
    for (const [value, shown] of expansionReferences(entry.config, options)) references.set(value, shown);
  }
  return (text) => redactText(scrubSecrets(text, secrets, references));
}
