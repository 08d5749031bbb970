import { join } from "node:path";
import type { CapabilitySource, CapabilitySourceResult, DiscoveryContext, ProjectSetting } from "../types.js";
import { isPlainObject } from "../util/describe-value.js";
import { defineFileSource, type FileSourceFindings } from "./define-file-source.js";
import { oauthAuth, objectOrUndefined, pickFields } from "./entry-fields.js";
import type { EntryMapping, FileSourceFile, ReadFile } from "./file-source.js";

/**
 * Maps a Gemini CLI entry: `command`, `args`, `env`, `cwd`, `headers`;
 * `httpUrl` → Streamable HTTP, `url` → SSE (or what `type` says), `httpUrl`
 * winning when both are set; `timeout` (ms) → both `timeout` and
 * `toolTimeout`; `includeTools` / `excludeTools`; `oauth` (when enabled) →
 * `auth`; `enabled` (mcp-rt's switch, honoured in every provider's file).
 * Values may use `$VAR` as well as `${VAR}`, as Gemini's settings do.
 */
export function mapGeminiEntry(entry: Record<string, unknown>): EntryMapping {
  const config = pickFields(entry, [
    "command",
    "args",
    "env",
    "cwd",
    "headers",
    "includeTools",
    "excludeTools",
    "enabled",
  ]);
  const fieldNames: Record<string, string> = {};
  if (entry.httpUrl !== undefined) {
    config.url = entry.httpUrl;
    config.type = "http";
    fieldNames.url = "httpUrl";
  } else if (entry.url !== undefined) {
    config.url = entry.url;
    config.type = entry.type === "http" ? "http" : "sse";
  }
  if (entry.timeout !== undefined) {
    config.timeout = entry.timeout;
    config.toolTimeout = entry.timeout;
    fieldNames.toolTimeout = "timeout";
  }
  const oauth = objectOrUndefined(entry.oauth);
  if (oauth?.enabled === true) {
    config.auth = oauthAuth({
      clientId: oauth.clientId,
      clientSecret: oauth.clientSecret,
      scopes: oauth.scopes,
    }) ?? { type: "oauth" };
  }
  return { config, interpolation: { syntax: "gemini" }, fieldNames };
}

/**
 * Gemini CLI's `settings.json` (JSON with comments): `.gemini/settings.json`
 * in the project and `~/.gemini/settings.json`, `mcpServers`. The settings'
 * server allow / deny lists (`mcp.allowed` / `mcp.excluded`, or the older
 * `allowMCPServers` / `excludeMCPServers`; the project's list replaces the
 * user's) turn the servers they leave out into `enabled: false`.
 */
export function createGeminiSource(): CapabilitySource {
  return defineFileSource({
    id: "gemini",
    name: "Gemini CLI",
    priority: 400,
    files: geminiFiles,
    map: mapGeminiEntry,
    finish: applyServerLists,
  });
}

/** The settings' allow / deny lists: a server they leave out is `enabled: false`. */
function applyServerLists({ servers, issues, read }: FileSourceFindings): CapabilitySourceResult {
  const projectSettings: ProjectSetting[] = [];
  const allow = firstList(read, "allowed", "allowMCPServers");
  const deny = firstList(read, "excluded", "excludeMCPServers");
  for (const list of [allow, deny]) {
    if (list?.level === "project")
      projectSettings.push({ path: list.path, key: list.written, value: [...list.names] });
  }
  for (const server of servers) {
    const by = deny?.names.has(server.name)
      ? `${deny.written} in ${deny.path}`
      : allow !== undefined && !allow.names.has(server.name)
        ? `${allow.written} in ${allow.path}, which leaves it out`
        : undefined;
    if (by !== undefined && isPlainObject(server.config)) {
      server.config = { ...server.config, enabled: false };
      server.fieldNames = { ...server.fieldNames, enabled: by };
    }
  }
  return { servers, issues, projectSettings };
}

function geminiFiles(ctx: DiscoveryContext): FileSourceFile[] {
  return [
    { path: join(ctx.cwd, ".gemini", "settings.json"), level: "project", format: "jsonc", key: "mcpServers" },
    {
      path: join(ctx.homeDir, ".gemini", "settings.json"),
      level: "user",
      format: "jsonc",
      key: "mcpServers",
    },
  ];
}

// The first file (project before user) that sets the list wins, as Gemini's
// settings merge replaces arrays rather than joining them.
function firstList(
  read: readonly ReadFile[],
  key: string,
  legacyKey: string,
): { names: Set<string>; written: string; path: string; level: string } | undefined {
  for (const { file, document } of read) {
    const current = objectOrUndefined(document?.mcp)?.[key];
    const list = current ?? document?.[legacyKey];
    if (Array.isArray(list)) {
      return {
        names: new Set(list.filter((name): name is string => typeof name === "string")),
        written: current === undefined ? legacyKey : `mcp.${key}`,
        path: file.path,
        level: file.level,
      };
    }
  }
  return undefined;
}
