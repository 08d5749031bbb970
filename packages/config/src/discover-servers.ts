import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { describeValue } from "./describe-value.js";
import type { ConfigIssue } from "./server-config.js";
import { createAntigravitySource } from "./sources/antigravity.js";
import { createClaudeCodeSource } from "./sources/claude-code.js";
import { createClaudeDesktopSource } from "./sources/claude-desktop.js";
import { createCodexSource } from "./sources/codex.js";
import { createCursorSource } from "./sources/cursor.js";
import { createGeminiSource } from "./sources/gemini.js";
import { createNativeSource } from "./sources/native.js";
import { createVsCodeSource } from "./sources/vscode.js";
import { createWindsurfSource } from "./sources/windsurf.js";
import type {
  CapabilitySource,
  DiscoveredServer,
  DiscoveryContext,
  DiscoveryOutcome,
  LoadConfigsOptions,
  ProjectSetting,
} from "./types.js";
import { errorMessage } from "./util/error-message.js";

/**
 * The built-in sources, highest priority first: mcp-rt, Claude Code,
 * Claude Desktop, Codex, Antigravity, Gemini CLI, Cursor, Windsurf, VS Code.
 *
 * @example
 * ```ts
 * // Read only Claude Code's and Cursor's files:
 * const sources = builtinSources.filter((s) => s.id === "claude-code" || s.id === "cursor");
 * await loadAllMCPConfigs(cwd, { sources });
 * ```
 */
export const builtinSources: readonly CapabilitySource[] = Object.freeze([
  createNativeSource(),
  createClaudeCodeSource(),
  createClaudeDesktopSource(),
  createCodexSource(),
  createAntigravitySource(),
  createGeminiSource(),
  createCursorSource(),
  createWindsurfSource(),
  createVsCodeSource(),
]);

/** The discovery context `loadAllMCPConfigs(cwd, options)` reads with. */
export function discoveryContext(cwd: string, options: LoadConfigsOptions = {}): DiscoveryContext {
  return {
    cwd: resolve(cwd),
    homeDir: options.homeDir ?? homedir(),
    env: options.env ?? process.env,
    platform: options.platform ?? process.platform,
    enableProjectConfig: options.enableProjectConfig !== false,
  };
}

/**
 * Runs the sources in parallel and lines their entries up by precedence:
 * higher `priority` first, then each source's own order. A source that throws
 * or returns something malformed becomes an issue; the others still count.
 * With `enableProjectConfig: false`, project-level entries are dropped even if
 * a source read them anyway.
 */
export async function discoverServers(
  sources: readonly CapabilitySource[],
  ctx: DiscoveryContext,
): Promise<DiscoveryOutcome> {
  const ordered = sources
    .map((source, index) => ({ source, index }))
    .sort((a, b) => priorityOf(b.source) - priorityOf(a.source) || a.index - b.index)
    .map(({ source }) => source);
  const [results, paths] = await Promise.all([
    Promise.all(ordered.map((source) => loadSafely(source, ctx))),
    Promise.all(ordered.map((source) => pathsOf(source, ctx))),
  ]);
  const outcome: DiscoveryOutcome = {
    servers: [],
    issues: [],
    disabledServers: new Set(),
    files: new Set(paths.flat()),
    alwaysLoadServers: new Set(),
    projectSettings: [],
  };
  for (const result of results) {
    if (ctx.enableProjectConfig !== false) outcome.projectSettings.push(...result.projectSettings);
    outcome.issues.push(...result.issues);
    for (const name of result.disabledServers) outcome.disabledServers.add(name);
    for (const issue of result.issues) if (isAbsolute(issue.path)) outcome.files.add(issue.path);
    for (const name of result.alwaysLoadServers) outcome.alwaysLoadServers.add(name);
    for (const server of result.servers) {
      if (server.source.level === "project" && ctx.enableProjectConfig === false) continue;
      outcome.servers.push(server);
      outcome.files.add(server.source.path);
    }
  }
  return outcome;
}

/** A source's `paths`, when it has them; one that throws or answers nonsense names none. */
async function pathsOf(source: CapabilitySource, ctx: DiscoveryContext): Promise<string[]> {
  try {
    const paths: unknown = await source.paths?.(ctx);
    if (!Array.isArray(paths)) return [];
    return paths.filter((path): path is string => typeof path === "string" && isAbsolute(path));
  } catch {
    return [];
  }
}

function priorityOf(source: CapabilitySource): number {
  return typeof source.priority === "number" && !Number.isNaN(source.priority) ? source.priority : 0;
}

async function loadSafely(
  source: CapabilitySource,
  ctx: DiscoveryContext,
): Promise<Omit<DiscoveryOutcome, keyof NameLists | "files"> & NameLists> {
  const label = `source:${String(source.id)}`;
  const fail = (message: string) => ({
    servers: [],
    issues: [{ path: label, code: "CONFIG_UNREADABLE" as const, message }],
    disabledServers: [],
    alwaysLoadServers: [],
    projectSettings: [],
  });
  let result: unknown;
  try {
    result = await source.load(ctx);
  } catch (error) {
    const reason = errorMessage(error);
    return fail(`config source "${String(source.name)}" failed (${reason}); its servers were skipped`);
  }
  if (!isObject(result) || !Array.isArray(result.servers) || !Array.isArray(result.issues)) {
    return fail(
      `config source "${String(source.name)}" returned ${describeValue(result)} instead of { servers, issues }; its servers were skipped`,
    );
  }
  const servers: DiscoveredServer[] = [];
  const issues = result.issues.filter(
    (issue): issue is ConfigIssue => isObject(issue) && typeof issue.message === "string",
  );
  for (const server of result.servers) {
    if (isWellFormed(server)) servers.push(server);
    else {
      issues.push({
        path: label,
        code: "CONFIG_INVALID",
        message: `config source "${String(source.name)}" returned a malformed entry ${describeValue(server)}; it was skipped`,
      });
    }
  }
  return {
    servers,
    issues,
    disabledServers: namesIn(result.disabledServers),
    alwaysLoadServers: namesIn(result.alwaysLoadServers),
    projectSettings: Array.isArray(result.projectSettings)
      ? result.projectSettings.filter(
          (setting): setting is ProjectSetting =>
            isObject(setting) && typeof setting.path === "string" && typeof setting.key === "string",
        )
      : [],
  };
}

interface NameLists {
  disabledServers: string[];
  alwaysLoadServers: string[];
  projectSettings: ProjectSetting[];
}

function namesIn(list: unknown): string[] {
  return Array.isArray(list) ? list.filter((name): name is string => typeof name === "string") : [];
}

// Loose on purpose: a source may build its results as class instances.
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isWellFormed(server: unknown): server is DiscoveredServer {
  if (!isObject(server) || typeof server.name !== "string" || !isObject(server.source)) return false;
  const { level, path, provider, providerName } = server.source;
  return (
    (level === "user" || level === "project") &&
    typeof path === "string" &&
    typeof provider === "string" &&
    typeof providerName === "string"
  );
}
