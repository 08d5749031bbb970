import { interpolateString } from "../interpolate.js";
import { isStdioConfig } from "../model/server-config.js";
import { describeValue, isPlainObject } from "../util/describe-value.js";
import type { PolicyServer } from "./server-policy.js";
import { matchesUrlPattern, urlPatternProblem } from "./url-pattern.js";

/** The two lists, in the keys an admin writes for Claude Code. */
export type ListName = "allowedMcpServers" | "deniedMcpServers";

/** One entry of `allowedMcpServers` / `deniedMcpServers`, ready to match. */
export interface ListRule {
  kind: "name" | "command" | "url";
  /** The entry as its file writes it, for messages: `{ "serverName": "github" }`. */
  text: string;
  /** The file it is in. */
  file: string;
  /** What it matches: a name, a command line, or URL patterns (as written, and as expanded). */
  values: readonly (string | readonly string[])[];
}

/** A policy's lists. `allowed` absent: every server is allowed; empty: none is. */
export interface ServerLists {
  allowed?: ListRule[];
  denied: ListRule[];
}

/** What reading the lists of one document gave: its rules, or what is wrong with them. */
export interface ReadLists {
  allowed?: ListRule[];
  denied?: ListRule[];
  /** `allowedMcpServers[2]: …` messages; any one makes the file unusable. */
  problems: string[];
}

/** Options of {@link readServerLists}. */
export interface ReadListsOptions {
  /** The file, named in each rule. */
  file: string;
  /**
   * Claude Code's reading: `serverCommand` and `serverUrl` values go through
   * `${VAR}` / `${VAR:-default}` expansion from this environment before
   * matching. Without it entries match as written. @default none
   */
  expandFrom?: Record<string, string | undefined>;
  /** Claude Code's rule: a `serverName` in `allowedMcpServers` is letters, digits, `-` and `_` only. */
  strictAllowedNames?: boolean;
}

const KEYS = ["serverName", "serverCommand", "serverUrl"] as const;
const ALLOWED_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Reads `allowedMcpServers` and `deniedMcpServers` of one policy document.
 * Each entry is an object with exactly one key: `serverName` (exact),
 * `serverCommand` (the exact command line of a stdio server) or `serverUrl`
 * (a remote server's URL, `*` wildcards). A wrong entry is a problem of the
 * whole file: the caller fails closed rather than guess what it meant.
 */
export async function readServerLists(
  document: Record<string, unknown>,
  options: ReadListsOptions,
): Promise<ReadLists> {
  const read: ReadLists = { problems: [] };
  for (const list of ["allowedMcpServers", "deniedMcpServers"] as const) {
    const value = document[list];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      read.problems.push(
        `${list}: must be a list of entries such as { "serverName": "github" }, got ${describeValue(value)}`,
      );
      continue;
    }
    const rules: ListRule[] = [];
    for (const [index, entry] of value.entries()) {
      const rule = await readEntry(entry, `${list}[${index}]`, list, options);
      if (typeof rule === "string") read.problems.push(rule);
      else if (rule !== undefined) rules.push(rule);
    }
    read[list === "allowedMcpServers" ? "allowed" : "denied"] = rules;
  }
  return read;
}

/** The rule of one entry, or what is wrong with it; `undefined` for an entry that can match nothing. */
async function readEntry(
  entry: unknown,
  at: string,
  list: ListName,
  options: ReadListsOptions,
): Promise<ListRule | string | undefined> {
  const keys = isPlainObject(entry) ? Object.keys(entry) : [];
  const key = keys[0];
  if (!isPlainObject(entry) || keys.length !== 1 || !KEYS.some((known) => known === key)) {
    const got = isPlainObject(entry) ? `keys ${keys.join(", ") || "(none)"}` : describeValue(entry);
    return `${at}: must be an object with exactly one of serverName, serverCommand or serverUrl, got ${got}`;
  }
  const value = entry[key as string];
  const text = `{ "${key}": ${JSON.stringify(value)} }`;
  const rule = (kind: ListRule["kind"], values: ListRule["values"]): ListRule => ({
    kind,
    text,
    file: options.file,
    values,
  });
  if (key === "serverName") {
    if (typeof value !== "string" || value === "") return `${at}.serverName: must be a non-empty string`;
    if (list === "allowedMcpServers" && options.strictAllowedNames && !ALLOWED_NAME.test(value)) {
      return `${at}.serverName: must be letters, digits, "-" and "_" only in allowedMcpServers, got ${JSON.stringify(value)}; allow it by serverUrl or serverCommand instead`;
    }
    return rule("name", [value]);
  }
  if (key === "serverCommand") {
    if (!Array.isArray(value) || value.length === 0 || !value.every((part) => typeof part === "string")) {
      return `${at}.serverCommand: must be the command and its arguments as a non-empty list of strings, e.g. ["npx", "-y", "server"]`;
    }
    if (value[0] === "") return `${at}.serverCommand: the command (its first item) must not be empty`;
    const expanded = await expandAll(value, options.expandFrom);
    // A deny entry counts as written too: an expansion can only add what it catches.
    return rule("command", list === "deniedMcpServers" ? [value, expanded] : [expanded]);
  }
  if (typeof value !== "string")
    return `${at}.serverUrl: must be a URL pattern string, got ${describeValue(value)}`;
  const problem = urlPatternProblem(value);
  if (problem !== undefined) return `${at}.serverUrl: ${problem}`;
  if (options.expandFrom === undefined || !value.includes("${")) return rule("url", [value]);
  // Claude Code ignores an allow entry whose expansion would move its scheme, host or
  // path; read safely, an allow pattern with a placeholder anywhere is ignored.
  if (list === "allowedMcpServers") return undefined;
  return rule("url", [value, ...(await expandAll([value], options.expandFrom))]);
}

async function expandAll(
  values: readonly string[],
  env: Record<string, string | undefined> | undefined,
): Promise<string[]> {
  if (env === undefined) return [...values];
  return Promise.all(values.map(async (value) => (await interpolateString(value, { env })).value));
}

/** Whether `rule` matches `server`: by name, by exact command line (stdio), or by URL pattern (remote). */
export function ruleMatches(rule: ListRule, server: Pick<PolicyServer, "name" | "config">): boolean {
  const { config } = server;
  if (rule.kind === "name") return rule.values.includes(server.name);
  if (rule.kind === "command") {
    if (!isStdioConfig(config)) return false;
    const line = [config.command, ...(config.args ?? [])];
    return rule.values.some(
      (command) => command.length === line.length && line.every((part, i) => part === command[i]),
    );
  }
  return (
    !isStdioConfig(config) &&
    rule.values.some((pattern) => typeof pattern === "string" && matchesUrlPattern(pattern, config.url))
  );
}

/**
 * The rule a server breaks, as `{ rule, file }`, or `undefined` when it may
 * start: a `deniedMcpServers` match always wins; then, when
 * `allowedMcpServers` is set, a remote server must match a `serverUrl` entry
 * (a `serverName` entry counts only while there is none), a stdio server a
 * `serverCommand` entry (likewise).
 */
export function breaksLists(
  lists: ServerLists,
  server: Pick<PolicyServer, "name" | "config">,
  allowedFile: string,
): { rule: string; file: string } | undefined {
  const denied = lists.denied.find((rule) => ruleMatches(rule, server));
  if (denied !== undefined) return { rule: `deniedMcpServers: ${denied.text}`, file: denied.file };
  const allowed = lists.allowed;
  if (allowed === undefined) return undefined;
  if (allowed.length === 0) {
    return { rule: "allowedMcpServers is empty: no server may start", file: allowedFile };
  }
  const stdio = isStdioConfig(server.config);
  const strict = allowed.filter((rule) => rule.kind === (stdio ? "command" : "url"));
  const candidates = strict.length > 0 ? strict : allowed.filter((rule) => rule.kind === "name");
  if (candidates.some((rule) => ruleMatches(rule, server))) return undefined;
  const what =
    strict.length > 0
      ? stdio
        ? "no serverCommand entry is its exact command and arguments"
        : "no serverUrl entry matches its URL"
      : `no serverName entry is ${JSON.stringify(server.name)}${stdio ? " (and none gives a serverCommand)" : " (and none gives a serverUrl)"}`;
  return { rule: `allowedMcpServers: ${what}`, file: allowedFile };
}
