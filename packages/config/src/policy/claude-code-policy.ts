import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { ConfigIssue } from "../model/config-issue.js";
import type { SourceMeta } from "../model/source-meta.js";
import { readConfigFile } from "../read-config-file.js";
import type { DiscoveryContext } from "../types.js";
import { describeValue, isPlainObject } from "../util/describe-value.js";
import { errorMessage } from "../util/error-message.js";
import { claudeManagedMcpFiles, policyPaths } from "./policy-paths.js";
import { breaksLists, type ListRule, readServerLists } from "./server-lists.js";
import { failClosed, problemOf, type ServerPolicy } from "./server-policy.js";

const governs = (source: SourceMeta): boolean => source.provider === "claude-code";

/**
 * Claude Code's managed policy, applied to the servers of Claude Code's
 * files (as documented at code.claude.com/docs/en/managed-mcp and
 * /managed-settings):
 *
 * - `allowedMcpServers` / `deniedMcpServers` of `managed-settings.json` and
 *   of every `managed-settings.d/*.json` (lists combine across files);
 *   `serverCommand` and `serverUrl` values expand `${VAR}` from the
 *   environment and the managed `env` before matching;
 * - a `managed-mcp.json` takes exclusive control: no other Claude Code
 *   server starts, and both lists filter its own servers too ("managed
 *   servers that don't pass them won't load").
 *
 * Read more strictly than Claude Code reads them, on purpose: lists in user
 * and project settings are not read, so nothing but the managed lists can
 * allow a server (as with `allowManagedMcpServersOnly: true`); a file that
 * does not parse, and any entry that is not valid, blocks every Claude Code
 * server until it is fixed (Claude Code drops such entries one by one).
 */
export async function readClaudeCodePolicy(
  ctx: DiscoveryContext,
): Promise<{ policy?: ServerPolicy; issues: ConfigIssue[] }> {
  const dirs = policyPaths(ctx).claudeCode;
  const [settings, managed] = await Promise.all([
    Promise.all(dirs.map((dir) => settingsFiles(dir))).then((lists) => lists.flat()),
    Promise.all(
      claudeManagedMcpFiles(ctx).map(async (path) => ({ path, file: await readConfigFile(path, "json") })),
    ),
  ]);

  const issues: ConfigIssue[] = [];
  const broken = (path: string, problem: string, issue = true) => {
    if (issue) {
      issues.push({
        path,
        code: "CONFIG_INVALID",
        message: `${path}: ${problem}; every Claude Code server is blocked until the file is fixed`,
      });
    }
    return { policy: failClosed("claude-code", governs, path, problem), issues };
  };

  const exclusive: string[] = [];
  for (const { path, file } of managed) {
    if (file.status === "missing") continue;
    // Its syntax is reported by the Claude Code source, which reads its servers.
    if (file.status === "error") return broken(path, problemOf(file.issue), false);
    if (!isPlainObject(file.document) || !isPlainObject(file.document.mcpServers ?? {})) {
      return broken(path, `expected { "mcpServers": { … } }, got ${describeValue(file.document)}`);
    }
    exclusive.push(path);
  }

  const documents: Array<{ path: string; document: Record<string, unknown> }> = [];
  for (const setting of settings) {
    if ("problem" in setting) return broken(setting.path, setting.problem);
    documents.push(setting);
  }
  const env: Record<string, string | undefined> = { ...ctx.env };
  for (const { document } of documents) {
    if (!isPlainObject(document.env)) continue;
    for (const [key, value] of Object.entries(document.env)) if (typeof value === "string") env[key] = value;
  }
  let allowed: ListRule[] | undefined;
  let allowedFile = "";
  const denied: ListRule[] = [];
  for (const { path, document } of documents) {
    const lists = await readServerLists(document, { file: path, expandFrom: env, strictAllowedNames: true });
    if (lists.problems.length > 0) return broken(path, lists.problems.join("; "));
    if (lists.allowed !== undefined) {
      allowedFile ||= path;
      allowed = [...(allowed ?? []), ...lists.allowed];
    }
    denied.push(...(lists.denied ?? []));
  }
  if (exclusive.length === 0 && allowed === undefined && denied.length === 0) return { issues };

  const policy: ServerPolicy = {
    judge(server) {
      if (!governs(server.source)) return undefined;
      const fromManaged = exclusive.includes(server.source.path);
      const [first] = exclusive;
      if (first !== undefined && !fromManaged) {
        const rule =
          "managed-mcp.json takes exclusive control of Claude Code's servers: only the servers it defines start";
        return { policy: "claude-code", rule, policyFile: first };
      }
      const lists = { denied, ...(allowed ? { allowed } : {}) };
      const broke = breaksLists(lists, server, allowedFile);
      return broke && { policy: "claude-code", rule: broke.rule, policyFile: broke.file };
    },
  };
  return { policy, issues };
}

type SettingsFile = { path: string; document: Record<string, unknown> } | { path: string; problem: string };

/** `managed-settings.json`, then each `managed-settings.d/*.json` in name order (hidden files skipped). */
async function settingsFiles(dir: string): Promise<SettingsFile[]> {
  const dropIns = join(dir, "managed-settings.d");
  let names: string[] = [];
  try {
    names = (await readdir(dropIns)).filter((name) => name.endsWith(".json") && !name.startsWith(".")).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") {
      return [{ path: dropIns, problem: `cannot list the folder (${errorMessage(error)})` }];
    }
  }
  const paths = [join(dir, "managed-settings.json"), ...names.map((name) => join(dropIns, name))];
  const read = await Promise.all(
    paths.map(async (path) => ({ path, file: await readConfigFile(path, "json") })),
  );
  const files: SettingsFile[] = [];
  for (const { path, file } of read) {
    if (file.status === "missing") continue;
    if (file.status === "error") files.push({ path, problem: problemOf(file.issue) });
    else if (!isPlainObject(file.document)) {
      files.push({ path, problem: `expected an object of settings, got ${describeValue(file.document)}` });
    } else files.push({ path, document: file.document });
  }
  return files;
}
