import { POLICY_NAMES } from "@mcp-rt/config/explain";
import { displayPath, plural } from "@mcp-rt/config/util";
import type {
  LoadConfigsResult,
  MCPNotWaitedFor,
  MCPServerState,
  SignInStatus,
  SourceMeta,
} from "@mcp-rt/manager";
import { describeEra } from "@mcp-rt/manager";
import { formatTokens, type ToolTokens } from "./tool-tokens.js";

/** What `/mcp list` says about one entry. */
export type MCPListStatus =
  | "connected"
  | "connecting"
  | "deferred"
  | "reconnecting"
  | "disconnected"
  | "failed"
  | "needs-auth"
  | "disabled"
  | "needs-approval"
  | "blocked"
  | "shadowed"
  | "filtered"
  | "invalid";

const GLYPHS: Record<MCPListStatus, string> = {
  connected: "●",
  connecting: "◌",
  deferred: "◌",
  reconnecting: "◌",
  disconnected: "○",
  failed: "✗",
  "needs-auth": "🔒",
  disabled: "–",
  "needs-approval": "?",
  blocked: "⛔",
  shadowed: "–",
  filtered: "–",
  invalid: "✗",
};

/** Where a listed entry is defined; only `path` is known for an entry that could not be read. */
export interface MCPListSource {
  /** The provider id (`claude-code`, `cursor`, `mcp-rt`…). */
  provider?: string;
  /** The provider as a person reads it (`Claude Code`). */
  providerName?: string;
  /** The config file. */
  path: string;
  /** `user` or `project`. */
  level?: SourceMeta["level"];
}

/** One line of `/mcp list`. */
export interface MCPListEntry {
  /** The server's config name. */
  name: string;
  /** Where it stands: running states from the manager, or why discovery does not start it. */
  status: MCPListStatus;
  /** The status as one character (● ◌ ○ ✗ – ? 🔒). */
  glyph: string;
  /** Where the entry is defined; absent for a server the manager runs without a config file. */
  source?: MCPListSource;
  /** Tools exposed for it now (live or from the cache). */
  toolCount?: number;
  /** Its tools held until the user approves them (`/mcp review <name>`), when any. */
  heldTools?: string[];
  /** Resources and resource templates it offers (live or cached), when it has any. */
  resourceCount?: number;
  /** Prompts it offers (live or cached), when it has any. */
  promptCount?: number;
  /** What its active tools' definitions cost the model, in tokens (o200k). */
  tokens?: number;
  /** True when the model always gets its tools, tool search or not (`alwaysLoad`, `/mcp pin`). */
  alwaysLoad?: boolean;
  /** How long connect + `tools/list` took, once connected. */
  connectedMs?: number;
  /** How much of `connectedMs` it waited for its turn to start (stdio servers take turns), when it waited. */
  queuedMs?: number;
  /** The revision it speaks, once connected: `2026-07-28`, or `2025-11-25 (legacy)`. */
  protocol?: string;
  /** While it is still starting: why startup did not wait for it. */
  notWaitedFor?: MCPNotWaitedFor;
  /** The last failure, with the server's stderr tail when it is a stdio server. */
  lastError?: { code: string; message: string; stderrTail?: string };
  /** A short explanation: why it does not run, or what is odd about it. */
  note?: string;
  /** A remote server's OAuth sign-in, as stored (never a token). */
  signIn?: { signedIn: boolean; issuer: string; account?: string };
}

/** The entries of one config file. */
export interface MCPListGroup {
  /** `undefined` for servers that come from no config file (connected by code). */
  source?: MCPListSource;
  entries: MCPListEntry[];
}

/** What `/mcp list` returns as `data`. */
export interface MCPServerList {
  groups: MCPListGroup[];
  /** File problems not tied to one server. */
  fileErrors: Array<{ path: string; message: string }>;
  /** Tokens of every active MCP tool's definition, and whether the model gets tool search instead now. */
  tokens?: { total: number; toolSearch: boolean; summary: string };
}

/** What the model sees of the servers: the tools' tokens per server and in all, and which are always loaded. */
export interface ModelCost {
  tokens: ToolTokens;
  alwaysLoaded: readonly string[];
  toolSearch: boolean;
  /** One line on the tool search (`ToolSearch.describe()`). */
  summary: string;
}

/** Adds {@link ModelCost} to a list: tokens and `alwaysLoad` on each server's entry, the total on the list. */
export function addModelCost(list: MCPServerList, cost: ModelCost): MCPServerList {
  const pinned = new Set(cost.alwaysLoaded);
  for (const entry of list.groups.flatMap((group) => group.entries)) {
    // Only the entry the manager runs: not a shadowed or disabled one of the same name.
    if (entry.toolCount === undefined || entry.status === "failed") continue;
    const { servers } = cost.tokens;
    const server = Object.hasOwn(servers, entry.name) ? servers[entry.name] : undefined;
    if (server) entry.tokens = server.tokens;
    if (pinned.has(entry.name)) entry.alwaysLoad = true;
  }
  list.tokens = { total: cost.tokens.total, toolSearch: cost.toolSearch, summary: cost.summary };
  return list;
}

const RUNTIME: Record<MCPServerState["status"], MCPListStatus> = {
  connected: "connected",
  connecting: "connecting",
  disconnected: "disconnected",
  reconnecting: "reconnecting",
  failed: "failed",
  "needs-auth": "needs-auth",
};

/**
 * Why startup went on without a server that had no cached tools, as `/mcp
 * list` and the example agent's start say it: `not waited for: …; its tools
 * follow when it is up`.
 */
export function notWaitedNote(why: MCPNotWaitedFor): string {
  const reason =
    why.reason === "failed-before"
      ? `its last start failed (${why.failure.code}: ${why.failure.message}); started behind the others`
      : why.reason === "missed-before"
        ? `did not come up within ${why.waitMs} ms at the last start`
        : `did not come up within ${why.waitMs} ms`;
  return `not waited for: ${reason}; its tools follow when it is up`;
}

function fromState(state: MCPServerState, signIn?: SignInStatus): Omit<MCPListEntry, "name" | "source"> {
  const status: MCPListStatus =
    state.status === "connecting" && state.deferred ? "deferred" : RUNTIME[state.status];
  const entry: Omit<MCPListEntry, "name" | "source"> = {
    status,
    glyph: GLYPHS[status],
    toolCount: state.toolCount,
  };
  if (state.resourceCount !== undefined) entry.resourceCount = state.resourceCount;
  if (state.promptCount !== undefined) entry.promptCount = state.promptCount;
  if (state.heldTools) entry.heldTools = [...state.heldTools];
  if (state.connectedMs !== undefined && state.status === "connected") entry.connectedMs = state.connectedMs;
  if (state.queuedMs !== undefined && state.status === "connected") entry.queuedMs = state.queuedMs;
  if (state.protocol && state.status === "connected") entry.protocol = describeEra(state.protocol);
  if (state.lastError && state.status !== "connected") entry.lastError = state.lastError;
  if (status === "deferred") entry.note = "tools from the cache; the server is still starting";
  if (state.notWaitedFor && status === "connecting") {
    entry.notWaitedFor = { ...state.notWaitedFor };
    entry.note = notWaitedNote(state.notWaitedFor);
  }
  if (status === "needs-auth") entry.note = `sign in with /mcp login ${state.name}`;
  if (signIn) {
    entry.signIn = {
      signedIn: signIn.signedIn,
      issuer: signIn.issuer,
      ...(signIn.account === undefined ? {} : { account: signIn.account }),
    };
  }
  return entry;
}

/** Options of {@link buildServerList}. */
export interface BuildServerListOptions {
  /** What discovery found. */
  discovery: LoadConfigsResult;
  /** What the manager runs now. */
  states: readonly MCPServerState[];
  /** Where paths are shown relative to. */
  where: { cwd: string; homeDir: string };
  /** The sign-in of each server that has one. @default none */
  signIns?: ReadonlyMap<string, SignInStatus>;
  /** The note of a server the `reserve` rule held back with `reason`. */
  heldBack: (reason: string) => string;
}

/**
 * Joins what discovery found (every entry, running or not) with what the
 * manager runs now, grouped by config file.
 */
export function buildServerList(options: BuildServerListOptions): MCPServerList {
  const { discovery, states, where, signIns = new Map(), heldBack } = options;
  const byName = new Map(states.map((state) => [state.name, state]));
  const entries: MCPListEntry[] = [];
  const seen = new Set<string>();
  const still = (name: string): string | undefined => {
    const state = byName.get(name);
    return state && (state.status === "connected" || state.status === "connecting")
      ? "; still running until /mcp reload"
      : undefined;
  };
  const configOnly = (name: string, source: SourceMeta, status: MCPListStatus, note: string): void => {
    seen.add(name);
    entries.push({ name, source, status, glyph: GLYPHS[status], note: note + (still(name) ?? "") });
  };

  for (const name of Object.keys(discovery.configs)) {
    const source = discovery.sources[name];
    const state = byName.get(name);
    seen.add(name);
    const entry: MCPListEntry = state
      ? { name, ...fromState(state, signIns.get(name)) }
      : {
          name,
          status: "disconnected",
          glyph: GLYPHS.disconnected,
          note: "not started; /mcp reload starts it",
        };
    if (source) entry.source = source;
    entries.push(entry);
  }
  for (const { name, source } of discovery.needsApproval) {
    configOnly(
      name,
      source,
      "needs-approval",
      "project server waiting for approval; review it, then /mcp trust",
    );
  }
  for (const { name, source, policy, rule, policyFile } of discovery.blocked ?? []) {
    configOnly(
      name,
      source,
      "blocked",
      `blocked by ${POLICY_NAMES[policy]} (${displayPath(policyFile, where)}): ${rule}`,
    );
  }
  for (const { name, source } of discovery.disabled) {
    configOnly(name, source, "disabled", `disabled; /mcp enable ${name} turns it on`);
  }
  for (const { name, source, reason } of discovery.filtered) {
    configOnly(name, source, "filtered", `filtered: ${heldBack(reason)}`);
  }
  for (const { name, source, by } of discovery.shadowed) {
    entries.push({
      name,
      source,
      status: "shadowed",
      glyph: GLYPHS.shadowed,
      note: `shadowed by ${by.providerName} (${displayPath(by.path, where)})`,
    });
  }
  const fileErrors: MCPServerList["fileErrors"] = [];
  for (const issue of discovery.errors) {
    if (issue.server === undefined) {
      fileErrors.push({ path: issue.path, message: issue.message });
      continue;
    }
    const name = issue.server;
    const known = entries.find((entry) => entry.name === name && entry.source?.path === issue.path);
    if (known) {
      known.note = known.note ? `${known.note}; ${issue.message}` : issue.message;
      continue;
    }
    seen.add(name);
    entries.push({
      name,
      source: { path: issue.path },
      status: "invalid",
      glyph: GLYPHS.invalid,
      note: issue.message,
    });
  }
  for (const state of states) {
    if (seen.has(state.name)) continue;
    const entry: MCPListEntry = { name: state.name, ...fromState(state) };
    if (state.source) entry.source = state.source;
    entry.note = [entry.note, "no longer in the config files; /mcp reload drops it"]
      .filter(Boolean)
      .join("; ");
    entries.push(entry);
  }
  return { groups: groupByFile(entries), fileErrors };
}

function groupByFile(entries: MCPListEntry[]): MCPListGroup[] {
  const groups = new Map<string, MCPListGroup>();
  for (const entry of entries) {
    const key = entry.source?.path ?? "";
    let group = groups.get(key);
    if (!group) {
      group = { entries: [] };
      groups.set(key, group);
    }
    if (entry.source && group.source?.providerName === undefined) group.source = entry.source;
    group.entries.push(entry);
  }
  for (const group of groups.values()) group.entries.sort((a, b) => compare(a.name, b.name));
  return [...groups.values()].sort(
    (a, b) =>
      Number(a.source === undefined) - Number(b.source === undefined) ||
      compare(a.source?.providerName ?? "", b.source?.providerName ?? "") ||
      compare(a.source?.path ?? "", b.source?.path ?? ""),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const LEGEND =
  "● connected  ◌ connecting/deferred  ○ disconnected  ✗ failed  – disabled/shadowed/filtered  ? needs approval  ⛔ blocked by policy  🔒 needs sign-in";

/** Lines of a server's stderr tail `/mcp list <name>` shows. */
const STDERR_LINES = 30;

/**
 * `/mcp list` as text for a terminal: one line a server, and its last error in
 * one line under it. The stderr tail is shown only with `stderr` (`/mcp list
 * <name>`); without it, a failed entry says where to find it.
 */
export function formatServerList(
  list: MCPServerList,
  where: { cwd: string; homeDir: string },
  options: { stderr?: boolean } = {},
): string {
  const all = list.groups.flatMap((group) => group.entries);
  if (all.length === 0 && list.fileErrors.length === 0) {
    return "No MCP servers are configured. Add one with /mcp add <name> --url <url> or /mcp add <name> -- <command>.";
  }
  const width = Math.max(...all.map((entry) => entry.name.length), 4);
  const out: string[] = [];
  for (const group of list.groups) {
    const title = group.source
      ? `${group.source.providerName ?? "Config file"} · ${displayPath(group.source.path, where)}${group.source.level ? ` (${group.source.level})` : ""}`
      : "Not from a config file";
    out.push(title);
    for (const entry of group.entries) {
      const facts: string[] = [entry.status.replace("-", " ")];
      if (entry.toolCount !== undefined && entry.status !== "failed") {
        facts.push(plural(entry.toolCount, "tool"));
        if (entry.heldTools) facts.push(`${entry.heldTools.length} held (/mcp review ${entry.name})`);
        if (entry.resourceCount !== undefined) facts.push(plural(entry.resourceCount, "resource"));
        if (entry.promptCount !== undefined) facts.push(plural(entry.promptCount, "prompt"));
      }
      if (entry.connectedMs !== undefined) {
        const queued = entry.queuedMs ? ` (${Math.round(entry.queuedMs)} ms of it waiting its turn)` : "";
        facts.push(`${Math.round(entry.connectedMs)} ms${queued}`);
      }
      if (entry.protocol) facts.push(entry.protocol);
      if (entry.signIn?.signedIn) {
        facts.push(
          `signed in${entry.signIn.account ? ` as ${entry.signIn.account}` : ""} at ${entry.signIn.issuer}`,
        );
      }
      if (entry.tokens !== undefined) facts.push(`${formatTokens(entry.tokens)} tokens`);
      if (entry.alwaysLoad) facts.push("always loaded");
      if (entry.note) facts.push(entry.note);
      out.push(`  ${entry.glyph} ${entry.name.padEnd(width)}  ${facts.join(" · ")}`);
      if (entry.lastError) {
        const tail = entry.lastError.stderrTail?.trimEnd();
        const hint = tail && !options.stderr ? ` (its stderr: /mcp list ${entry.name})` : "";
        out.push(`      last error: ${entry.lastError.code}: ${entry.lastError.message}${hint}`);
        if (tail && options.stderr) {
          out.push("      stderr:");
          for (const line of tail.split("\n").slice(-STDERR_LINES)) out.push(`        ${line}`);
        }
      }
    }
    out.push("");
  }
  if (list.fileErrors.length > 0) {
    out.push("Config file problems:");
    for (const issue of list.fileErrors) out.push(`  ✗ ${displayPath(issue.path, where)}: ${issue.message}`);
    out.push("");
  }
  if (list.tokens) {
    out.push(
      `MCP tool definitions: ${formatTokens(list.tokens.total)} tokens in all · ${list.tokens.summary}`,
    );
  }
  out.push(LEGEND);
  return out.join("\n");
}
