import type { ConfigIssue } from "../model/config-issue.js";
import type { MCPServerConfig } from "../model/server-config.js";
import type { SourceMeta } from "../model/source-meta.js";

/**
 * Whose policy forbade a server: mcp-rt's own (every server), Claude Code's
 * managed policy (Claude Code's servers) or Codex's `requirements.toml`
 * (Codex's servers).
 */
export type PolicyId = "mcp-rt" | "claude-code" | "codex";

/** What a policy is asked about: one server, expanded and validated. */
export interface PolicyServer {
  name: string;
  /** The config that would start, placeholders expanded. */
  config: MCPServerConfig;
  source: SourceMeta;
}

/** Why a policy forbids a server: the rule, in the words of its file, and the file. */
export interface PolicyBlock {
  policy: PolicyId;
  /** The rule that forbids it, e.g. `deniedMcpServers: { "serverName": "github" }`. */
  rule: string;
  /** The policy file the rule is in. */
  policyFile: string;
}

/** One policy file's verdicts. */
export interface ServerPolicy {
  /** The block for a server it forbids, `undefined` for one it lets start (or does not govern). */
  judge(server: PolicyServer): PolicyBlock | undefined;
}

/** Every policy in force for one load, and what was wrong with their files. */
export interface Policies extends ServerPolicy {
  /** Policy files that could not be read or are malformed, each naming the file and what to change. */
  issues: ConfigIssue[];
  /** Every policy file looked for, existing or not: what a session that watches its config follows too. */
  files: string[];
}

/**
 * The policy of a file that could not be used: every server it governs is
 * blocked, the rule naming the problem, so a broken file never lets through
 * what it would have forbidden.
 */
export function failClosed(
  policy: PolicyId,
  governs: (source: SourceMeta) => boolean,
  policyFile: string,
  problem: string,
): ServerPolicy {
  const rule = `the policy file cannot be used (${problem}); every server it governs is blocked until it is fixed`;
  return { judge: ({ source }) => (governs(source) ? { policy, rule, policyFile } : undefined) };
}

/** The policies together: the first that forbids a server decides, in the order given. */
export function allPolicies(
  policies: readonly ServerPolicy[],
  issues: ConfigIssue[],
  files: string[] = [],
): Policies {
  return {
    issues,
    files,
    judge(server) {
      for (const policy of policies) {
        const block = policy.judge(server);
        if (block !== undefined) return block;
      }
      return undefined;
    },
  };
}

/**
 * What a read issue says is wrong, without the file's path in front (the
 * policy names the file itself): `line 1, column 3: invalid JSON: …`.
 */
export function problemOf(issue: ConfigIssue): string {
  const { path, message, line, column } = issue;
  const at = line === undefined ? "" : `line ${line}${column === undefined ? "" : `, column ${column}`}: `;
  const rest = message.startsWith(path) ? message.slice(path.length).replace(/^(:\d+)*: /, "") : message;
  return `${at}${rest}`;
}

/** No policy at all: what a load without policy files gets. */
export const NO_POLICIES: Policies = allPolicies([], []);
