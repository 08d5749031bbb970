import { isStdioConfig, type MCPServerConfig } from "../model/server-config.js";
import { describeValue, isPlainObject } from "../util/describe-value.js";

/** One value matcher of a Codex identity: `exact`, `prefix` or a full-value `regex`. */
interface ValueMatcher {
  test(value: string): boolean;
}

/** A Codex `mcp_servers.<name>.identity`, ready to match. */
export interface CodexIdentity {
  /** The identity as its file writes it, for messages. */
  text: string;
  matches(config: MCPServerConfig): boolean;
}

/**
 * Reads one `identity` table of Codex's `requirements.toml`, as Codex's
 * configuration reference documents it:
 *
 * - `command = "codex-mcp"`: a stdio server whose `command` is exactly that
 *   (arguments, `cwd` and `env` are not inspected);
 * - `command = { executable = "…", args = [{ match = "exact" | "prefix" | "regex", value | expression }] }`:
 *   the exact executable and exactly as many arguments, each matching its
 *   matcher in order (a regex must match the whole argument);
 * - `url = "https://…"`: a Streamable HTTP server at exactly that URL, or
 *   `url = { match, value | expression }`.
 *
 * Read safely where the reference is silent: a matcher table without `args`
 * allows no arguments, and `url`'s table takes the same `match` / `value` /
 * `expression` keys as an argument's. Returns the problem as a string.
 */
export function readCodexIdentity(identity: unknown, at: string): CodexIdentity | string {
  if (!isPlainObject(identity))
    return `${at}: must be a table with command or url, got ${describeValue(identity)}`;
  const { command, url } = identity;
  if ((command === undefined) === (url === undefined)) {
    return `${at}: must have exactly one of command or url`;
  }
  if (command !== undefined) {
    if (typeof command === "string") {
      if (command === "") return `${at}.command: must not be empty`;
      return {
        text: `command = ${JSON.stringify(command)}`,
        matches: (config) => isStdioConfig(config) && config.command === command,
      };
    }
    return readCommandMatcher(command, `${at}.command`);
  }
  if (typeof url === "string") {
    if (url === "") return `${at}.url: must not be empty`;
    return {
      text: `url = ${JSON.stringify(url)}`,
      matches: (config) => !isStdioConfig(config) && config.url === url,
    };
  }
  const matcher = readValueMatcher(url, `${at}.url`);
  if (typeof matcher === "string") return matcher;
  return {
    text: `url = ${JSON.stringify(url)}`,
    matches: (config) => !isStdioConfig(config) && matcher.test(config.url),
  };
}

function readCommandMatcher(command: unknown, at: string): CodexIdentity | string {
  if (!isPlainObject(command)) {
    return `${at}: must be a command string or a table { executable, args }, got ${describeValue(command)}`;
  }
  const { executable, args = [] } = command;
  if (typeof executable !== "string" || executable === "")
    return `${at}.executable: must be a non-empty string`;
  if (!Array.isArray(args)) return `${at}.args: must be a list of matchers, got ${describeValue(args)}`;
  const matchers: ValueMatcher[] = [];
  for (const [index, arg] of args.entries()) {
    const matcher = readValueMatcher(arg, `${at}.args[${index}]`);
    if (typeof matcher === "string") return matcher;
    matchers.push(matcher);
  }
  return {
    text: `command = ${JSON.stringify(command)}`,
    matches(config) {
      if (!isStdioConfig(config) || config.command !== executable) return false;
      const given = config.args ?? [];
      return given.length === matchers.length && given.every((arg, i) => matchers[i]?.test(arg) === true);
    },
  };
}

function readValueMatcher(table: unknown, at: string): ValueMatcher | string {
  if (!isPlainObject(table))
    return `${at}: must be a matcher table { match, value } or { match, expression }`;
  const { match, value, expression } = table;
  if (match === "exact" || match === "prefix") {
    if (typeof value !== "string") return `${at}.value: must be a string for match = "${match}"`;
    return { test: match === "exact" ? (given) => given === value : (given) => given.startsWith(value) };
  }
  if (match === "regex") {
    if (typeof expression !== "string") return `${at}.expression: must be a string for match = "regex"`;
    let pattern: RegExp;
    try {
      pattern = new RegExp(`^(?:${expression})$`, "u");
    } catch (error) {
      return `${at}.expression: not a valid regular expression (${(error as Error).message})`;
    }
    return { test: (given) => pattern.test(given) };
  }
  return `${at}.match: must be "exact", "prefix" or "regex", got ${describeValue(match)}`;
}
