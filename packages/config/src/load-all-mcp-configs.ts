import { askProjectTrust, projectEnvFiles } from "./ask-project-trust.js";
import { setOwn } from "./describe-value.js";
import { builtinSources, discoverServers, discoveryContext } from "./discover-servers.js";
import { memoizeResolveInput } from "./interpolate.js";
import { type SettledServers, settleServers } from "./settle-servers.js";
import type { DiscoveryContext, LoadConfigsOptions, LoadConfigsResult } from "./types.js";

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
