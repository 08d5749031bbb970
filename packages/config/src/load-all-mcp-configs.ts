import { setOwn } from "./describe-value.js";
import type { DiscoveryOutcome } from "./discover-servers.js";
import { builtinSources, discoverServers, discoveryContext } from "./discover-servers.js";
import { envFileDigest, envFileInProject, expandEnvFilePath } from "./env-file.js";
import { memoizeResolveInput } from "./interpolate.js";
import type { ConfigIssue } from "./server-config.js";
import { interpolationOf, type SettledServers, settleServers } from "./settle-servers.js";
import { canonicalJson, hashProjectServers, type TrustHashEnvFile } from "./trust-store.js";
import type {
  DiscoveryContext,
  LoadConfigsOptions,
  LoadConfigsResult,
  ProjectChange,
  ProjectTrust,
  ProjectTrustQuestion,
} from "./types.js";
import { errorMessage } from "./util/error-message.js";

/**
 * Finds the MCP servers configured for a project folder in every known
 * client's files (see `builtinSources`), and explains every one it will not start.
 *
 * Order of operations: sources not allowed (project level with
 * `enableProjectConfig: false`) are not read at all; duplicates are resolved
 * by priority (→ `shadowed`); the winner's `enabled: false` or its name in the
 * native `disabledServers` (→ `disabled`); placeholder expansion and
 * validation (→ `errors`); the caller's `reserve` rule (→ `filtered`); then
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
  const settleOptions = {
    ...(options.reserve ? { reserve: options.reserve } : {}),
    ...(options.resolveInput ? { resolveInput: memoizeResolveInput(options.resolveInput) } : {}),
  };
  const discovery = await discoverServers(sources, ctx);
  const envFiles =
    options.trust === "all" || !ctx.enableProjectConfig ? [] : await projectEnvFiles(discovery, ctx);
  const involved =
    discovery.servers.some((server) => server.source.level === "project") ||
    discovery.projectSettings.length > 0 ||
    envFiles.length > 0;

  if (options.trust === "all" || !ctx.enableProjectConfig || !involved) {
    const settled = await settleServers(discovery, ctx, settleOptions);
    return assemble(settled, discovery.files);
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
  const waiting = wouldBe.accepted.filter((server) => server.discovered.source.level === "project");
  const changes = projectChanges({ mine, wouldBe, discovery, ctx });
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
  result.shadowed.push(...fromProject(wouldBe.shadowed));
  result.files = [...new Set([...(result.files ?? []), ...wouldBe.envFiles])].sort();
  // Nothing to start, change or read: no question to ask.
  if (waiting.length === 0 && changes.length === 0 && envFiles.length === 0) return result;

  const question = await askProjectTrust({ trust: options.trust, ctx, discovery, envFiles });
  if (question.approved) {
    // With no env file held back, the approved set is the one already settled.
    const settled = held.size === 0 ? wouldBe : await settleServers(discovery, ctx, settleOptions);
    return { ...assemble(settled, discovery.files, question.errors), projectTrust: question.asked };
  }
  result.errors.push(...question.errors);
  for (const server of waiting) {
    result.needsApproval.push({
      name: server.name,
      source: server.discovered.source,
      config: server.config,
      ...(server.envFile !== undefined ? { envFile: server.envFile } : {}),
    });
  }
  if (changes.length > 0) result.pendingChanges = changes;
  return { ...result, projectTrust: question.asked };
}

/** An env file inside the project that an entry reads: project content, covered by the approval. */
type ProjectEnvFile = Omit<TrustHashEnvFile, "digest">;

/**
 * The env files inside the project that entries would read: every
 * project-level entry's, and a user-level entry's that points into the
 * project (a `.env` of the repository is the project's content too, unless
 * the project folder holds the home folder itself).
 */
async function projectEnvFiles(
  discovery: DiscoveryOutcome,
  ctx: DiscoveryContext,
): Promise<ProjectEnvFile[]> {
  const readers = discovery.servers.filter((server) => server.envFile !== undefined);
  if (readers.length === 0) return [];
  const homeInProject = await envFileInProject(ctx.homeDir, ctx);
  const found = await Promise.all(
    readers.map(async (server): Promise<ProjectEnvFile | undefined> => {
      if (server.envFile === undefined) return undefined;
      if (server.source.level === "user" && homeInProject) return undefined;
      const { path, missing } = await expandEnvFilePath(server.envFile, ctx, interpolationOf(server, ctx));
      if (missing.length > 0 || !(await envFileInProject(path, ctx))) return undefined;
      return { server: server.name, provider: server.source.provider, path };
    }),
  );
  return found.filter((file) => file !== undefined);
}

/** The answer about a project, and the problem asking it, if any. */
interface TrustAnswer {
  approved: boolean;
  asked: ProjectTrustQuestion;
  errors: ConfigIssue[];
}

/**
 * Asks `trust` whether the project's current set is approved: its
 * project-level entries as written, its files' settings, and the bytes of the
 * env files inside it. No trust store means nothing is approved; a store
 * that fails counts as "not approved", reported as an error.
 */
async function askProjectTrust(options: {
  trust: ProjectTrust | undefined;
  ctx: DiscoveryContext;
  discovery: DiscoveryOutcome;
  envFiles: readonly ProjectEnvFile[];
}): Promise<TrustAnswer> {
  const { trust, ctx, discovery } = options;
  const envFiles = await Promise.all(
    options.envFiles.map(async (file) => ({ ...file, digest: await envFileDigest(file.path) })),
  );
  const hash = hashProjectServers(discovery.servers, { settings: discovery.projectSettings, envFiles });
  const errors: ConfigIssue[] = [];
  let approved = false;
  if (trust !== undefined) {
    try {
      approved = (await trust.isApproved(ctx.cwd, hash)) === true;
    } catch (error) {
      errors.push({
        path: ctx.cwd,
        message: `could not check whether this project's servers are approved (${errorMessage(error)}); they wait for approval`,
      });
    }
  }
  return { approved, asked: { projectDir: ctx.cwd, hash, approved }, errors };
}

/**
 * What the project's files would change in the servers the user configured,
 * comparing what runs without them (`mine`) with what would run with them.
 */
function projectChanges(options: {
  mine: SettledServers;
  wouldBe: SettledServers;
  discovery: DiscoveryOutcome;
  ctx: DiscoveryContext;
}): ProjectChange[] {
  const { mine, wouldBe, discovery, ctx } = options;
  const wouldRun = new Map(wouldBe.accepted.map((server) => [server.name, server]));
  const where = (name: string): string =>
    discovery.servers.find((server) => server.name === name && server.source.level === "project")?.source
      .path ??
    discovery.projectSettings.find((setting) => Array.isArray(setting.value) && setting.value.includes(name))
      ?.path ??
    discovery.projectSettings[0]?.path ??
    ctx.cwd;
  const changes: ProjectChange[] = [];
  for (const server of mine.accepted) {
    const { name } = server;
    const source = server.discovered.source;
    const next = wouldRun.get(name);
    if (next === undefined) changes.push({ name, change: "disable", source, path: where(name) });
    else if (next.discovered.source.level === "project") {
      changes.push({ name, change: "replace", source, path: next.discovered.source.path });
    } else if (canonicalJson(next.config) !== canonicalJson(server.config)) {
      changes.push({ name, change: "pin", source, path: where(name) });
    }
  }
  for (const entry of mine.disabled) {
    const next = wouldRun.get(entry.name);
    if (next !== undefined && next.discovered.source.level === "user") {
      changes.push({ name: entry.name, change: "enable", source: entry.source, path: where(entry.name) });
    }
  }
  return changes;
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
