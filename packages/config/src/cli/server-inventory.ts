import type { ConfigIssue, SourceMeta } from "../server-config.js";
import type { DiscoveredServer, LoadConfigsResult } from "../types.js";

/** Why a server entry will, or will not, start. */
export type ServerStatus = "active" | "disabled" | "filtered" | "shadowed" | "needs approval" | "invalid";

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
  /** The winner's config after `${…}` expansion, or a losing entry as its source read it. */
  config: unknown;
  /** True for the one entry per name that the loader kept. */
  winner: boolean;
  /** For `shadowed`: the source whose entry of the same name wins. */
  shadowedBy: SourceMeta | undefined;
  /** Validation problems and unset variables. */
  issues: string[];
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
  "disabled",
  "filtered",
  "invalid",
  "shadowed",
];

/** The config a loader result entry carries, when the loader includes one. */
export function configOf(entry: object): unknown {
  return (entry as { config?: unknown }).config;
}

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
  const findRaw = (name: string, source: SourceMeta | undefined, path: string): unknown =>
    discovered.find(
      (entry) =>
        entry.name === name &&
        entry.source.path === path &&
        (source === undefined || entry.source.provider === source.provider),
    )?.config;

  const entries: InventoryEntry[] = [];
  const add = (
    name: string,
    status: ServerStatus,
    source: SourceMeta,
    config: unknown,
    shadowedBy?: SourceMeta,
  ): void => {
    entries.push({
      name,
      status,
      source,
      path: source.path,
      transport: transportOf(config),
      config,
      winner: status !== "shadowed",
      shadowedBy,
      issues: [],
    });
  };

  for (const [name, config] of Object.entries(result.configs)) {
    const source = result.sources[name];
    if (source) add(name, "active", source, config);
  }
  for (const entry of result.needsApproval) {
    const { name, source } = entry;
    add(name, "needs approval", source, configOf(entry) ?? findRaw(name, source, source.path));
  }
  for (const entry of result.disabled) {
    add(
      entry.name,
      "disabled",
      entry.source,
      configOf(entry) ?? findRaw(entry.name, entry.source, entry.source.path),
    );
  }
  for (const entry of result.filtered) {
    add(
      entry.name,
      "filtered",
      entry.source,
      configOf(entry) ?? findRaw(entry.name, entry.source, entry.source.path),
    );
  }
  for (const entry of result.shadowed) {
    const { name, source, by } = entry;
    add(name, "shadowed", source, configOf(entry) ?? findRaw(name, source, source.path), by);
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
    const raw = discovered.find((entry) => entry.name === issue.server && entry.source.path === issue.path);
    entries.push({
      name: issue.server,
      status: "invalid",
      source: raw?.source,
      path: issue.path,
      transport: transportOf(raw?.config),
      config: raw?.config,
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
