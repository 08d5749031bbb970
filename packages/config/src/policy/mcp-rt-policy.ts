import { isAbsolute, relative, sep } from "node:path";
import type { ConfigIssue } from "../model/config-issue.js";
import { readConfigFile } from "../read-config-file.js";
import type { DiscoveryContext } from "../types.js";
import { describeValue, isPlainObject } from "../util/describe-value.js";
import { policyPaths } from "./policy-paths.js";
import { breaksLists, readServerLists } from "./server-lists.js";
import { failClosed, problemOf, type ServerPolicy } from "./server-policy.js";

/** The variable that names one more mcp-rt policy file (tests, containers). */
export const POLICY_VARIABLE = "MCP_RT_POLICY";

const KNOWN_KEYS = new Set(["$schema", "allowedMcpServers", "deniedMcpServers"]);
const everyServer = (): boolean => true;

/**
 * mcp-rt's own policy: the system file (see `policyPaths`) and the file
 * `$MCP_RT_POLICY` names, each applying on its own to every server from
 * every source. Each is `{ "allowedMcpServers": [...], "deniedMcpServers": [...] }`
 * in Claude Code's keys, entries matched as written (no `${VAR}` expansion:
 * what an admin wrote is what is enforced). A file that cannot be used (bad
 * JSON, a wrong entry, a key mcp-rt does not know, a `$MCP_RT_POLICY` that
 * is relative, missing or inside the project) blocks every server, with an
 * issue naming the file and what to change.
 */
export async function readMcpRtPolicies(
  ctx: DiscoveryContext,
): Promise<{ policies: ServerPolicy[]; issues: ConfigIssue[] }> {
  const named = ctx.env[POLICY_VARIABLE];
  const files = policyPaths(ctx).mcpRt.map((path) => ({ path, named: false }));
  if (named !== undefined && named !== "" && !files.some((file) => file.path === named)) {
    files.push({ path: named, named: true });
  }
  const read = await Promise.all(files.map((file) => readOne(file.path, file.named, ctx)));
  return {
    policies: read.flatMap((one) => (one.policy ? [one.policy] : [])),
    issues: read.flatMap((one) => (one.issue ? [one.issue] : [])),
  };
}

async function readOne(
  path: string,
  named: boolean,
  ctx: DiscoveryContext,
): Promise<{ policy?: ServerPolicy; issue?: ConfigIssue }> {
  const broken = (code: ConfigIssue["code"], problem: string, fix: string) => ({
    policy: failClosed("mcp-rt", everyServer, path, problem),
    issue: {
      path,
      ...(code ? { code } : {}),
      message: `${path}: ${problem}; every MCP server is blocked until ${fix}`,
    },
  });
  if (named && !isAbsolute(path)) {
    return broken("CONFIG_INVALID", `${POLICY_VARIABLE} must be an absolute path`, "it names one");
  }
  if (named && isInside(path, ctx.cwd)) {
    return broken(
      "CONFIG_INVALID",
      `${POLICY_VARIABLE} names a file inside the project folder, and a project cannot carry its own policy`,
      "it names a file outside the project",
    );
  }
  const file = await readConfigFile(path, "json");
  if (file.status === "missing") {
    return named
      ? broken("CONFIG_UNREADABLE", `${POLICY_VARIABLE} names this file, which does not exist`, "it exists")
      : {};
  }
  if (file.status === "error") {
    return broken(file.issue.code, problemOf(file.issue), "the file is fixed");
  }
  const document = file.document;
  if (!isPlainObject(document)) {
    return broken(
      "CONFIG_INVALID",
      `expected an object with allowedMcpServers and deniedMcpServers, got ${describeValue(document)}`,
      "the file is fixed",
    );
  }
  const unknown = Object.keys(document).filter((key) => !KNOWN_KEYS.has(key));
  const lists = await readServerLists(document, { file: path });
  const problems = [
    ...unknown.map((key) => `${key}: not a key of mcp-rt's policy (allowedMcpServers, deniedMcpServers)`),
    ...lists.problems,
  ];
  if (problems.length > 0) return broken("CONFIG_INVALID", problems.join("; "), "the file is fixed");
  const servers = { denied: lists.denied ?? [], ...(lists.allowed ? { allowed: lists.allowed } : {}) };
  return {
    policy: {
      judge(server) {
        const broke = breaksLists(servers, server, path);
        return broke && { policy: "mcp-rt", rule: broke.rule, policyFile: broke.file };
      },
    },
  };
}

function isInside(path: string, folder: string): boolean {
  const to = relative(folder, path);
  return to === "" || (to.split(sep)[0] !== ".." && !isAbsolute(to));
}
