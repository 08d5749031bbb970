import { realpath } from "node:fs/promises";
import { isAbsolute, join, posix } from "node:path";
import { claudeManagedMcpFiles } from "../policy/policy-paths.js";
import type { CapabilitySource, CapabilitySourceResult, DiscoveryContext } from "../types.js";
import { isPlainObject } from "../util/describe-value.js";
import { defineFileSource, type FileSourceFindings } from "./define-file-source.js";
import { oauthAuth, objectOrUndefined, pickFields, transportType } from "./entry-fields.js";
import type { EntryMapping, FileSourceFile, MapHolder } from "./file-source.js";

const ID = { id: "claude-code", name: "Claude Code" };

/**
 * Maps a Claude entry (Claude Code, and Claude Desktop's same format): `type`
 * (`stdio` | `http` | `sse`), `command`, `args`, `env`, `url`, `headers`, and
 * `oauth: { clientId, callbackPort, scopes }` → `auth`; `enabled` (mcp-rt's
 * switch, honoured in every provider's file). `${CLAUDE_PROJECT_DIR}` is the
 * project folder, as Claude Code expands it.
 */
export function mapClaudeEntry(entry: Record<string, unknown>): EntryMapping {
  const config = pickFields(entry, ["command", "args", "env", "url", "headers", "enabled"]);
  if (entry.type !== undefined) config.type = transportType(entry.type);
  const oauth = objectOrUndefined(entry.oauth);
  const auth =
    oauth && oauthAuth({ clientId: oauth.clientId, scopes: oauth.scopes, callbackPort: oauth.callbackPort });
  if (auth) config.auth = auth;
  return { config, interpolation: { syntax: "claude" } };
}

/**
 * Claude Code's three scopes, in its own precedence: local
 * (`projects[<cwd>].mcpServers` of `~/.claude.json`, level `user` since it
 * lives in the user's file), then project (`.mcp.json`), then user (top-level
 * `mcpServers` of `~/.claude.json`). `$CLAUDE_CONFIG_DIR` moves
 * `.claude.json`. A project server the user turned down in Claude
 * (`projects[<cwd>].disabledMcpjsonServers`) is `enabled: false`.
 *
 * Above them, an organisation's `managed-mcp.json` (`/etc/claude-code/`,
 * `/Library/Application Support/ClaudeCode/`, `C:\Program Files\ClaudeCode\`),
 * level `user`: where it exists Claude Code's managed policy lets only its
 * servers start (`loadAllMCPConfigs` reports the others as `blocked`).
 */
export function createClaudeCodeSource(): CapabilitySource {
  return defineFileSource({
    ...ID,
    priority: 700,
    files: claudeFiles,
    map: mapClaudeEntry,
    finish: applyTurnedDown,
  });
}

/**
 * Claude's files in its precedence: the organisation's `managed-mcp.json`
 * files (user level: they come with the machine, not the project), then
 * local (`projects[<cwd>].mcpServers` in `~/.claude.json`, or in
 * `$CLAUDE_CONFIG_DIR`), project (`.mcp.json`), user (`mcpServers` of
 * `~/.claude.json`).
 */
function claudeFiles(ctx: DiscoveryContext): FileSourceFile[] {
  const managed = claudeManagedMcpFiles(ctx).map(
    (path): FileSourceFile => ({ path, level: "user", format: "json", key: "mcpServers" }),
  );
  const user = join(ctx.env.CLAUDE_CONFIG_DIR || ctx.homeDir, ".claude.json");
  return [
    ...managed,
    { path: user, level: "user", format: "json", key: "mcpServers", within: localProject },
    { path: join(ctx.cwd, ".mcp.json"), level: "project", format: "json", key: "mcpServers" },
    { path: user, level: "user", format: "json", key: "mcpServers" },
  ];
}

/** A project server the user turned down in Claude (`disabledMcpjsonServers` of the local scope) is `enabled: false`. */
function applyTurnedDown({ servers, issues, read }: FileSourceFindings): Required<CapabilitySourceResult> {
  const local = read.find(({ file, holder }) => file.within !== undefined && holder !== undefined);
  const disabled = local?.holder?.object.disabledMcpjsonServers;
  if (local?.holder && Array.isArray(disabled)) {
    const turnedDown = new Set(disabled.filter((name) => typeof name === "string"));
    const declinedIn = `${local.holder.path}.disabledMcpjsonServers in ${local.file.path}`;
    for (const server of servers) {
      if (server.source.level === "project" && turnedDown.has(server.name) && isPlainObject(server.config)) {
        server.config = { ...server.config, enabled: false };
        server.fieldNames = { ...server.fieldNames, enabled: declinedIn };
      }
    }
  }
  return { servers, issues, disabledServers: [], alwaysLoadServers: [], projectSettings: [] };
}

// Claude keys `projects` by the folder's absolute path as the OS spelled it;
// compare without trailing slashes or `.` / `..` segments, with either slash,
// and through symlinks on either side (a key may name a link to the project).
async function localProject(
  document: Record<string, unknown>,
  ctx: DiscoveryContext,
): Promise<MapHolder | undefined> {
  const { projects } = document;
  if (!isPlainObject(projects)) return undefined;
  const normalize = (path: string) => {
    const slashed = posix.normalize(path.replace(/\\/g, "/")).replace(/\/+$/, "");
    return ctx.platform === "win32" ? slashed.toLowerCase() : slashed;
  };
  const realCwd = await realpath(ctx.cwd).catch(() => undefined);
  const wanted = new Set([normalize(ctx.cwd)]);
  if (realCwd !== undefined) wanted.add(normalize(realCwd));
  const candidates = Object.entries(projects).filter((entry): entry is [string, Record<string, unknown>] =>
    isPlainObject(entry[1]),
  );
  const found = (project: [string, Record<string, unknown>] | undefined): MapHolder | undefined =>
    project && { object: project[1], path: `projects[${JSON.stringify(project[0])}]` };
  const direct = candidates.find(([key]) => wanted.has(normalize(key)));
  if (direct !== undefined || realCwd === undefined) return found(direct);
  const resolved = await Promise.all(
    candidates.map(([key]) => (isAbsolute(key) ? realpath(key).catch(() => undefined) : undefined)),
  );
  const index = resolved.findIndex((path) => path !== undefined && normalize(path) === normalize(realCwd));
  return found(candidates[index]);
}
