import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { memoizeResolveInput } from "./interpolate.js";
import type { ConfigIssue } from "./model/config-issue.js";
import { loadPolicies } from "./policy/load-policies.js";
import { askProjectTrust, projectEnvFiles } from "./project-trust.js";
import { type SettledServers, settleServers } from "./settle-servers.js";
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
  LoadConfigsResult,
  ProjectSetting,
} from "./types.js";
import { describeValue, setOwn } from "./util/describe-value.js";
import { errorMessage } from "./util/error-message.js";

/**
 * Finds the MCP servers configured for a project folder in every known
 * client's files (see `builtinSources`), and explains every one it will not start.
 *
 * Order of operations: sources not allowed (project level with
 * `enableProjectConfig: false`) are not read at all; duplicates are resolved
 * by priority (→ `shadowed`); the winner's `enabled: false` or its name in the
 * native `disabledServers` (→ `disabled`); placeholder expansion and
 * validation (→ `errors`); policy: mcp-rt's own and the managed policy of
 * the client whose file defines the server (→ `blocked`, which no option,
 * user file or project file loosens); the caller's `reserve` rule (→
 * `filtered`); then
 * project trust: unless `trust` approves the project (or is `"all"`), its
 * servers wait in `needsApproval` and its files change nothing the user
 * configured (what they would change is in `pendingChanges`). Never
 * throws for bad input: unreadable files, syntax errors, wrong shapes and
 * invalid entries come back in `errors`, each with the file path, and
 * everything else still loads.
 *
 * @example
 * ```ts
 * const { configs, sources, errors } = await loadAllMCPConfigs(process.cwd(), { trust: createTrustStore() });
 * for (const issue of errors) console.warn(`${issue.path}: ${issue.message}`);
 * for (const name of Object.keys(configs)) console.log(name, "from", sources[name]?.providerName);
 * ```
 */
export async function loadAllMCPConfigs(
  cwd: string,
  options: LoadConfigsOptions = {},
): Promise<LoadConfigsResult> {
  const ctx: DiscoveryContext = discoveryContext(cwd, options);
  const sources = options.sources ?? builtinSources;
  // Each VS Code input is asked once per load, however many entries use it.
  const [discovery, policies] = await Promise.all([discoverServers(sources, ctx), loadPolicies(ctx)]);
  for (const file of policies.files) if (isAbsolute(file)) discovery.files.add(file);
  const settleOptions = {
    policies,
    ...(options.reserve ? { reserve: options.reserve } : {}),
    ...(options.resolveInput ? { resolveInput: memoizeResolveInput(options.resolveInput) } : {}),
  };
  const { trust } = options;
  const envFiles = trust === "all" || !ctx.enableProjectConfig ? [] : await projectEnvFiles(discovery, ctx);
  const involved =
    discovery.servers.some((server) => server.source.level === "project") ||
    discovery.projectSettings.length > 0 ||
    envFiles.length > 0;
  if (trust === "all" || !ctx.enableProjectConfig || !involved) {
    return assemble(await settleServers(discovery, ctx, settleOptions), discovery.files);
  }

  // What runs without the project's files, and what would run with them;
  // an env file inside the project is not read for either.
  const held = new Set(envFiles.map((file) => file.path));
  const envFileHeld = async (path: string) => held.has(path);
  const userOnly = await discoverServers(sources, { ...ctx, enableProjectConfig: false });
  const [mine, wouldBe] = await Promise.all([
    settleServers(userOnly, ctx, { ...settleOptions, envFileHeld }),
    settleServers(discovery, ctx, { ...settleOptions, envFileHeld }),
  ]);
  const result = assemble(mine, discovery.files);
  const userFiles = new Set(userOnly.files);
  for (const issue of wouldBe.errors) {
    if (!userFiles.has(issue.path) && !result.errors.some((known) => sameIssue(known, issue))) {
      result.errors.push(issue);
    }
  }
  const fromProject = <T extends { source: { level: string } }>(list: T[]) =>
    list.filter((entry) => entry.source.level === "project");
  result.disabled.push(...fromProject(wouldBe.disabled));
  result.blocked?.push(...fromProject(wouldBe.blocked));
  result.shadowed.push(...fromProject(wouldBe.shadowed));
  result.files = [...new Set([...(result.files ?? []), ...wouldBe.envFiles])].sort();

  const answer = await askProjectTrust({ trust, ctx, discovery, envFiles, mine, wouldBe });
  if (answer === undefined) return result;
  if (answer.approved) {
    // With no env file held back, the approved set is the one already settled.
    const settled = held.size === 0 ? wouldBe : await settleServers(discovery, ctx, settleOptions);
    return { ...assemble(settled, discovery.files, answer.errors), projectTrust: answer.asked };
  }
  result.errors.push(...answer.errors);
  result.needsApproval.push(...answer.needsApproval);
  if (answer.pendingChanges.length > 0) result.pendingChanges = answer.pendingChanges;
  return { ...result, projectTrust: answer.asked };
}

function assemble(
  settled: SettledServers,
  files: ReadonlySet<string>,
  extraErrors: LoadConfigsResult["errors"] = [],
): LoadConfigsResult {
  const result: LoadConfigsResult = {
    configs: {},
    sources: {},
    errors: [...settled.errors, ...extraErrors],
    shadowed: settled.shadowed,
    disabled: settled.disabled,
    filtered: settled.filtered,
    blocked: settled.blocked,
    needsApproval: [],
  };
  for (const server of settled.accepted) {
    setOwn(result.configs, server.name, server.config);
    setOwn(result.sources, server.name, server.discovered.source);
    if (server.envFile !== undefined) {
      result.envFiles ??= {};
      setOwn(result.envFiles, server.name, server.envFile);
    }
  }
  result.files = [...new Set([...files, ...settled.envFiles])].sort();
  return result;
}

function sameIssue(a: LoadConfigsResult["errors"][number], b: LoadConfigsResult["errors"][number]): boolean {
  return a.path === b.path && a.server === b.server && a.message === b.message;
}

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
    ...(options.systemRoot ? { systemRoot: options.systemRoot } : {}),
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
