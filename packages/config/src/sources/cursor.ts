import { join } from "node:path";
import type { CapabilitySource, DiscoveryContext } from "../types.js";
import { defineFileSource } from "./define-file-source.js";
import { oauthAuth, objectOrUndefined, pickFields, transportType } from "./entry-fields.js";
import type { EntryMapping, FileSourceFile } from "./file-source.js";

/**
 * Maps a Cursor entry: `type`, `command`, `args`, `env`, `envFile`, `url`,
 * `headers`, and `auth: { CLIENT_ID, CLIENT_SECRET, scopes }` → `auth` (OAuth). A `url`
 * without `type` is Streamable HTTP with SSE fallback, as Cursor does.
 * `enabled` is mcp-rt's switch, honoured in every provider's file.
 */
export function mapCursorEntry(entry: Record<string, unknown>): EntryMapping {
  const config = pickFields(entry, ["command", "args", "env", "url", "headers", "enabled"]);
  if (entry.type !== undefined) config.type = transportType(entry.type);
  const block = objectOrUndefined(entry.auth);
  const auth =
    block &&
    oauthAuth({
      clientId: block.CLIENT_ID,
      clientSecret: block.CLIENT_SECRET,
      scopes: block.scopes,
    });
  if (auth) config.auth = auth;
  return {
    config,
    interpolation: { syntax: "cursor" },
    ...(typeof entry.envFile === "string" ? { envFile: entry.envFile } : {}),
  };
}

/** Cursor's `.cursor/mcp.json` (project) and `~/.cursor/mcp.json` (user), `mcpServers`. */
export function createCursorSource(): CapabilitySource {
  return defineFileSource({
    id: "cursor",
    name: "Cursor",
    priority: 300,
    files: cursorFiles,
    map: mapCursorEntry,
  });
}

function cursorFiles(ctx: DiscoveryContext): FileSourceFile[] {
  return [
    { path: join(ctx.cwd, ".cursor", "mcp.json"), level: "project", format: "json", key: "mcpServers" },
    { path: join(ctx.homeDir, ".cursor", "mcp.json"), level: "user", format: "json", key: "mcpServers" },
  ];
}
