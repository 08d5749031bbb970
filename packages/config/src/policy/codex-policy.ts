import type { ConfigIssue } from "../model/config-issue.js";
import { isStdioConfig } from "../model/server-config.js";
import type { SourceMeta } from "../model/source-meta.js";
import { readConfigFile } from "../read-config-file.js";
import type { DiscoveryContext } from "../types.js";
import { describeValue, isPlainObject } from "../util/describe-value.js";
import { type CodexIdentity, readCodexIdentity } from "./codex-identity.js";
import { policyPaths } from "./policy-paths.js";
import { failClosed, problemOf, type ServerPolicy } from "./server-policy.js";

const governs = (source: SourceMeta): boolean => source.provider === "codex";

/**
 * Codex's `requirements.toml` (see `policyPaths`), applied to the servers of
 * Codex's files as developers.openai.com/codex/enterprise/managed-configuration
 * documents it: without `[mcp_servers]` nothing is restricted; with it, a
 * server starts only when an entry of its very name has an `identity` that
 * matches it (`mcp_servers = {}` allows none), so renaming a server in the
 * user's config gets nothing through. The file's other keys (sandbox,
 * approvals…) are Codex's own and not read. A file that does not parse, or
 * an `[mcp_servers]` that is not valid, blocks every Codex server until it
 * is fixed. Several files (Windows' `%ProgramData%` and `C:\ProgramData`, a
 * `systemRoot`) each apply on their own.
 */
export async function readCodexPolicies(
  ctx: DiscoveryContext,
): Promise<{ policies: ServerPolicy[]; issues: ConfigIssue[] }> {
  const read = await Promise.all(policyPaths(ctx).codex.map((path) => readOne(path)));
  return {
    policies: read.flatMap((one) => (one.policy ? [one.policy] : [])),
    issues: read.flatMap((one) => (one.issue ? [one.issue] : [])),
  };
}

async function readOne(path: string): Promise<{ policy?: ServerPolicy; issue?: ConfigIssue }> {
  const broken = (code: ConfigIssue["code"], problem: string) => ({
    policy: failClosed("codex", governs, path, problem),
    issue: {
      path,
      ...(code ? { code } : {}),
      message: `${path}: ${problem}; every Codex server is blocked until the file is fixed`,
    },
  });
  const file = await readConfigFile(path, "toml");
  if (file.status === "missing") return {};
  if (file.status === "error") return broken(file.issue.code, problemOf(file.issue));
  const document = file.document;
  if (!isPlainObject(document) || document.mcp_servers === undefined) return {};
  const table = document.mcp_servers;
  if (!isPlainObject(table)) {
    return broken(
      "CONFIG_INVALID",
      `mcp_servers: must be a table of server names, got ${describeValue(table)}`,
    );
  }
  const identities = new Map<string, CodexIdentity>();
  const problems: string[] = [];
  for (const [name, requirement] of Object.entries(table)) {
    const at = `mcp_servers.${name}`;
    if (!isPlainObject(requirement) || requirement.identity === undefined) {
      problems.push(`${at}: must have an identity table ([${at}.identity] with command or url)`);
      continue;
    }
    const identity = readCodexIdentity(requirement.identity, `${at}.identity`);
    if (typeof identity === "string") problems.push(identity);
    else identities.set(name, identity);
  }
  if (problems.length > 0) return broken("CONFIG_INVALID", problems.join("; "));

  return {
    policy: {
      judge({ name, config, source }) {
        if (!governs(source)) return undefined;
        const identity = identities.get(name);
        if (identity === undefined) {
          const rule =
            identities.size === 0
              ? "mcp_servers is empty: no Codex server may start"
              : `mcp_servers has no entry named ${JSON.stringify(name)}`;
          return { policy: "codex", rule, policyFile: path };
        }
        if (identity.matches(config)) return undefined;
        const rule = `mcp_servers.${name}.identity (${identity.text}) does not match its ${isStdioConfig(config) ? "command" : "URL"}`;
        return { policy: "codex", rule, policyFile: path };
      },
    },
  };
}
