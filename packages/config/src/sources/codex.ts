import { join } from "node:path";
import { ENV_NAME } from "../model/server-config.js";
import type { CapabilitySource, DiscoveryContext } from "../types.js";
import { isPlainObject, setOwn } from "../util/describe-value.js";
import { defineFileSource } from "./define-file-source.js";
import { pickFields } from "./entry-fields.js";
import type { EntryContext, EntryMapping, FileSourceFile } from "./file-source.js";

/**
 * Maps a Codex `[mcp_servers.<name>]` table:
 *
 * - `command`, `args`, `env`, `cwd`; `env_vars` (names passed through from
 *   the parent environment when set) → `env`;
 * - `url` → Streamable HTTP (Codex speaks no SSE); `http_headers` → `headers`;
 *   `env_http_headers` (header → variable, skipped when unset, as Codex does)
 *   and `bearer_token_env_var` (→ `Authorization: Bearer …`, an error when
 *   unset) read the environment;
 * - `startup_timeout_sec` (or the older `startup_timeout_ms`) → `timeout`,
 *   `tool_timeout_sec` → `toolTimeout`, seconds turned into milliseconds;
 * - `enabled`, `enabled_tools` → `includeTools`, `disabled_tools` → `excludeTools`.
 */
export function mapCodexEntry(entry: Record<string, unknown>, info: Pick<EntryContext, "ctx">): EntryMapping {
  const config = pickFields(entry, ["command", "args", "cwd", "url", "enabled"]);
  const fieldNames: Record<string, string> = {};
  const env = entry.env;

  const passThrough = Array.isArray(entry.env_vars)
    ? entry.env_vars.filter((name): name is string => typeof name === "string" && ENV_NAME.test(name))
    : [];
  if (passThrough.length > 0 && (env === undefined || isPlainObject(env))) {
    const merged: Record<string, unknown> = {};
    for (const name of passThrough) {
      if (info.ctx.env[name] !== undefined) merged[name] = `\${${name}}`;
    }
    for (const [key, value] of Object.entries(env ?? {})) setOwn(merged, key, value);
    config.env = merged;
  } else if (env !== undefined) {
    config.env = env;
  }

  if (entry.url !== undefined) {
    config.type = "http";
    const headers: Record<string, unknown> = {};
    const fixed = entry.http_headers;
    if (isPlainObject(fixed)) for (const [key, value] of Object.entries(fixed)) setOwn(headers, key, value);
    else if (fixed !== undefined) config.headers = fixed;
    if (isPlainObject(entry.env_http_headers)) {
      for (const [header, variable] of Object.entries(entry.env_http_headers)) {
        if (typeof variable === "string" && ENV_NAME.test(variable) && info.ctx.env[variable]) {
          setOwn(headers, header, `\${${variable}}`);
        }
      }
    }
    const bearer = entry.bearer_token_env_var;
    if (typeof bearer === "string" && bearer !== "") headers.Authorization = `Bearer \${${bearer}}`;
    if (config.headers === undefined && Object.keys(headers).length > 0) config.headers = headers;
    if (fixed !== undefined && !isPlainObject(fixed)) fieldNames.headers = "http_headers";
  }

  const startup = entry.startup_timeout_sec ?? entry.startup_timeout_ms;
  if (startup !== undefined) {
    const seconds = entry.startup_timeout_sec !== undefined;
    config.timeout = seconds ? toMilliseconds(startup) : startup;
    fieldNames.timeout = seconds ? "startup_timeout_sec, in seconds" : "startup_timeout_ms";
  }
  if (entry.tool_timeout_sec !== undefined) {
    config.toolTimeout = toMilliseconds(entry.tool_timeout_sec);
    fieldNames.toolTimeout = "tool_timeout_sec, in seconds";
  }
  if (entry.enabled_tools !== undefined) {
    config.includeTools = entry.enabled_tools;
    fieldNames.includeTools = "enabled_tools";
  }
  if (entry.disabled_tools !== undefined) {
    config.excludeTools = entry.disabled_tools;
    fieldNames.excludeTools = "disabled_tools";
  }
  return { config, interpolation: { syntax: "posix" }, fieldNames };
}

/**
 * Codex's `config.toml` (`$CODEX_HOME`, default `~/.codex`) and the project's
 * `.codex/config.toml`, `[mcp_servers.<name>]` tables.
 */
export function createCodexSource(): CapabilitySource {
  return defineFileSource({
    id: "codex",
    name: "Codex",
    priority: 500,
    files: codexFiles,
    map: mapCodexEntry,
  });
}

function codexFiles(ctx: DiscoveryContext): FileSourceFile[] {
  return [
    { path: join(ctx.cwd, ".codex", "config.toml"), level: "project", format: "toml", key: "mcp_servers" },
    {
      path: join(ctx.env.CODEX_HOME || join(ctx.homeDir, ".codex"), "config.toml"),
      level: "user",
      format: "toml",
      key: "mcp_servers",
    },
  ];
}

// A non-number is passed on as it is, for validation to report.
function toMilliseconds(seconds: unknown): unknown {
  return typeof seconds === "number" && Number.isFinite(seconds) ? Math.round(seconds * 1000) : seconds;
}
