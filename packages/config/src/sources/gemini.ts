import { join } from "node:path";
import { isPlainObject } from "../describe-value.js";
import type { CapabilitySource, CapabilitySourceResult } from "../types.js";
import { oauthAuth, objectOrUndefined, pickFields } from "./entry-fields.js";
import {
  allowed,
  collectServers,
  type EntryMapping,
  mergeResults,
  type ReadSourceFileResult,
  readSourceFile,
  type SourceFile,
  sourceMeta,
} from "./file-source.js";

const ID = { id: "gemini", name: "Gemini CLI" };

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
    config.auth = oauthAuth({ clientId: oauth.clientId, scopes: oauth.scopes }) ?? { type: "oauth" };
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
  return {
    ...ID,
    priority: 400,
    async load(ctx) {
      const files: SourceFile[] = [
        { path: join(ctx.cwd, ".gemini", "settings.json"), level: "project", format: "jsonc" },
        { path: join(ctx.homeDir, ".gemini", "settings.json"), level: "user", format: "jsonc" },
      ];
      const none: ReadSourceFileResult = { issues: [] };
      const read = await Promise.all(files.map((file) => (allowed(file, ctx) ? readSourceFile(file) : none)));
      const results: CapabilitySourceResult[] = read.map(({ document, issues }, i) => {
        const file = files[i] as SourceFile;
        if (document === undefined) return { servers: [], issues };
        return collectServers({
          map: document.mcpServers,
          keyPath: "mcpServers",
          source: sourceMeta(ID, file),
          document,
          ctx,
          mapEntry: mapGeminiEntry,
        });
      });
      const allowList = firstList(read, "allowed", "allowMCPServers");
      const denyList = firstList(read, "excluded", "excludeMCPServers");
      const merged = mergeResults(results);
      for (const server of merged.servers) {
        const off = denyList?.has(server.name) || (allowList !== undefined && !allowList.has(server.name));
        if (off && isPlainObject(server.config)) server.config = { ...server.config, enabled: false };
      }
      return merged;
    },
  };
}

// The first file (project before user) that sets the list wins, as Gemini's
// settings merge replaces arrays rather than joining them.
function firstList(read: ReadSourceFileResult[], key: string, legacyKey: string): Set<string> | undefined {
  for (const { document } of read) {
    const list = objectOrUndefined(document?.mcp)?.[key] ?? document?.[legacyKey];
    if (Array.isArray(list)) return new Set(list.filter((name): name is string => typeof name === "string"));
  }
  return undefined;
}
