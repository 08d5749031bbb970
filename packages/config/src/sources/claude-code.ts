import { realpath } from "node:fs/promises";
import { isAbsolute, join, posix } from "node:path";
import { claudeManagedMcpFiles } from "../policy/policy-paths.js";
import type { CapabilitySource, CapabilitySourceResult, DiscoveryContext } from "../types.js";
import { isPlainObject } from "../util/describe-value.js";
import { oauthAuth, objectOrUndefined, pickFields, transportType } from "./entry-fields.js";
import {
  allowed,
  allowedPaths,
  type CollectedEntries,
  collectEntries,
  type EntryMapping,
  type ReadSourceFileResult,
  readSourceFile,
  type SourceFile,
  sourceMeta,
} from "./file-source.js";

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
  return {
    ...ID,
    priority: 700,
    paths: (ctx) => [...managedFiles(ctx).map((file) => file.path), ...allowedPaths(claudeFiles(ctx), ctx)],
    async load(ctx) {
      const [userFile, projectFile] = claudeFiles(ctx);
      const none: ReadSourceFileResult = { issues: [] };
      const [user, project, managed] = await Promise.all([
        readSourceFile(userFile),
        allowed(projectFile, ctx) ? readSourceFile(projectFile) : none,
        Promise.all(managedFiles(ctx).map(async (file) => ({ file, read: await readSourceFile(file) }))),
      ]);
      const results: CapabilitySourceResult[] = [
        {
          servers: [],
          issues: [...user.issues, ...project.issues, ...managed.flatMap(({ read }) => read.issues)],
        },
      ];
      const mapped = (collected: CollectedEntries): CapabilitySourceResult => ({
        servers: collected.entries.map(({ server, entry }) => ({
          ...server,
          ...(entry && mapClaudeEntry(entry)),
        })),
        issues: collected.issues,
      });
      for (const { file, read } of managed) {
        if (read.document === undefined) continue;
        const { mcpServers } = read.document;
        results.push(
          mapped(
            collectEntries({
              map: mcpServers,
              keyPath: "mcpServers",
              source: sourceMeta(ID, file),
              document: read.document,
            }),
          ),
        );
      }

      let turnedDown = new Set<string>();
      let declinedIn = "";
      if (user.document !== undefined) {
        const local = await localProject(user.document.projects, ctx);
        if (local !== undefined) {
          results.push(
            mapped(
              collectEntries({
                map: local.settings.mcpServers,
                keyPath: `projects[${JSON.stringify(local.key)}].mcpServers`,
                source: sourceMeta(ID, userFile),
                document: user.document,
              }),
            ),
          );
          declinedIn = `projects[${JSON.stringify(local.key)}].disabledMcpjsonServers in ${userFile.path}`;
          const disabled = local.settings.disabledMcpjsonServers;
          if (Array.isArray(disabled))
            turnedDown = new Set(disabled.filter((name) => typeof name === "string"));
        }
      }
      if (project.document !== undefined) {
        const result = mapped(
          collectEntries({
            map: project.document.mcpServers,
            keyPath: "mcpServers",
            source: sourceMeta(ID, projectFile),
            document: project.document,
          }),
        );
        for (const server of result.servers) {
          if (turnedDown.has(server.name) && isPlainObject(server.config)) {
            server.config = { ...server.config, enabled: false };
            server.fieldNames = { ...server.fieldNames, enabled: declinedIn };
          }
        }
        results.push(result);
      }
      if (user.document !== undefined) {
        results.push(
          mapped(
            collectEntries({
              map: user.document.mcpServers,
              keyPath: "mcpServers",
              source: sourceMeta(ID, userFile),
              document: user.document,
            }),
          ),
        );
      }
      return mergeResults(results);
    },
  };
}

/** The organisation's `managed-mcp.json` files, read as user-level: they come with the machine, not the project. */
function managedFiles(ctx: DiscoveryContext): SourceFile[] {
  return claudeManagedMcpFiles(ctx).map((path) => ({ path, level: "user", format: "json" }));
}

/** `~/.claude.json` (or in `$CLAUDE_CONFIG_DIR`) and the project's `.mcp.json`. */
function claudeFiles(ctx: DiscoveryContext): [user: SourceFile, project: SourceFile] {
  const configDir = ctx.env.CLAUDE_CONFIG_DIR || ctx.homeDir;
  return [
    { path: join(configDir, ".claude.json"), level: "user", format: "json" },
    { path: join(ctx.cwd, ".mcp.json"), level: "project", format: "json" },
  ];
}

// Claude keys `projects` by the folder's absolute path as the OS spelled it;
// compare without trailing slashes or `.` / `..` segments, with either slash,
// and through symlinks on either side (a key may name a link to the project).
async function localProject(
  projects: unknown,
  ctx: DiscoveryContext,
): Promise<{ key: string; settings: Record<string, unknown> } | undefined> {
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
  const direct = candidates.find(([key]) => wanted.has(normalize(key)));
  if (direct !== undefined || realCwd === undefined) return direct && { key: direct[0], settings: direct[1] };
  const resolved = await Promise.all(
    candidates.map(([key]) => (isAbsolute(key) ? realpath(key).catch(() => undefined) : undefined)),
  );
  const index = resolved.findIndex((path) => path !== undefined && normalize(path) === normalize(realCwd));
  const linked = candidates[index];
  return linked && { key: linked[0], settings: linked[1] };
}

/** Concatenates results, keeping their order (= precedence). */
function mergeResults(results: CapabilitySourceResult[]): Required<CapabilitySourceResult> {
  const merged: Required<CapabilitySourceResult> = {
    servers: [],
    issues: [],
    disabledServers: [],
    alwaysLoadServers: [],
    projectSettings: [],
  };
  for (const result of results) {
    merged.servers.push(...result.servers);
    merged.issues.push(...result.issues);
    merged.disabledServers.push(...(result.disabledServers ?? []));
    merged.alwaysLoadServers.push(...(result.alwaysLoadServers ?? []));
    merged.projectSettings.push(...(result.projectSettings ?? []));
  }
  return merged;
}
