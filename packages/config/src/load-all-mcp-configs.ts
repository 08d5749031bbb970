import { setOwn } from "./describe-value.js";
import { discoverServers, discoveryContext } from "./discover-servers.js";
import { memoizeResolveInput } from "./interpolate.js";
import { prepareServer } from "./prepare-server.js";
import { hashProjectServers } from "./project-trust-hash.js";
import type { MCPServerConfig } from "./server-config.js";
import { builtinSources } from "./sources/builtin-sources.js";
import type {
  DiscoveredServer,
  DiscoveryContext,
  LoadConfigsOptions,
  LoadConfigsResult,
  ProjectTrust,
} from "./types.js";
import { errorMessage } from "./util/error-message.js";

/** A server that passed every step so far: its usable config and the entry it came from. */
interface AcceptedServer {
  name: string;
  config: MCPServerConfig;
  /** The entry as discovered: mapped field names, placeholders not yet expanded. */
  discovered: DiscoveredServer;
}

/**
 * Finds the MCP servers configured for a project folder in every known
 * client's files (see `builtinSources`), and explains every one it will not start.
 *
 * Order of operations: sources not allowed (project level with
 * `enableProjectConfig: false`) are not read at all; duplicates are resolved
 * by priority (→ `shadowed`); the winner's `enabled: false` or its name in the
 * native `disabledServers` (→ `disabled`); placeholder expansion and
 * validation (→ `errors`); the caller's `reserve` rule (→ `filtered`); with
 * `trust`, project trust (→ `needsApproval`). Never
 * throws for bad input: unreadable files, syntax errors, wrong shapes and
 * invalid entries come back in `errors`, each with the file path, and
 * everything else still loads.
 *
 * @example
 * ```ts
 * const { configs, sources, errors } = await loadAllMCPConfigs(process.cwd());
 * for (const issue of errors) console.warn(`${issue.path}: ${issue.message}`);
 * for (const name of Object.keys(configs)) console.log(name, "from", sources[name]?.providerName);
 * ```
 */
export async function loadAllMCPConfigs(
  cwd: string,
  options: LoadConfigsOptions = {},
): Promise<LoadConfigsResult> {
  const ctx: DiscoveryContext = discoveryContext(cwd, options);
  const result: LoadConfigsResult = {
    configs: {},
    sources: {},
    errors: [],
    shadowed: [],
    disabled: [],
    filtered: [],
    needsApproval: [],
  };

  const discovery = await discoverServers(options.sources ?? builtinSources, ctx);
  result.errors.push(...discovery.issues);

  // Priority: the first entry of a name wins, the rest are shadowed by it.
  const winners = new Map<string, DiscoveredServer>();
  for (const server of discovery.servers) {
    const winner = winners.get(server.name);
    if (winner === undefined) winners.set(server.name, server);
    else result.shadowed.push({ name: server.name, source: server.source, by: winner.source });
  }

  const enabled = [...winners.values()].filter((server) => {
    const off = isSwitchedOff(server.config) || discovery.disabledServers.has(server.name);
    if (off) result.disabled.push({ name: server.name, source: server.source });
    return !off;
  });

  // Each VS Code input is asked once per load, however many entries use it.
  const inputs = options.resolveInput ? { resolveInput: memoizeResolveInput(options.resolveInput) } : {};
  const prepared = await Promise.all(enabled.map((server) => prepareServer(server, ctx, inputs)));
  const accepted: AcceptedServer[] = [];
  const files = discovery.files;
  enabled.forEach((server, i) => {
    const outcome = prepared[i];
    if (outcome === undefined) return;
    if (outcome.envFile !== undefined) files.add(outcome.envFile);
    if ("issue" in outcome) {
      result.errors.push(outcome.issue);
      return;
    }
    const reserved = options.reserve?.({ name: server.name, config: outcome.config, source: server.source });
    if (reserved) {
      result.filtered.push({
        name: server.name,
        source: server.source,
        reason: reserved.reason,
        keys: [...(reserved.keys ?? [])],
      });
    } else {
      accepted.push({ name: server.name, config: outcome.config, discovered: server });
    }
  });

  const trusted =
    options.trust && options.trust !== "all"
      ? await applyProjectTrust({
          trust: options.trust,
          projectDir: ctx.cwd,
          accepted,
          discovered: discovery.servers,
          result,
        })
      : accepted;
  for (const server of trusted) {
    // After trust: the approval hashes entries as written, and a pin is not a change to approve.
    const pinned = discovery.alwaysLoadServers.has(server.name) && server.config.alwaysLoad !== true;
    setOwn(result.configs, server.name, pinned ? { ...server.config, alwaysLoad: true } : server.config);
    setOwn(result.sources, server.name, server.discovered.source);
  }
  result.files = [...files].sort();
  return result;
}

function isSwitchedOff(config: unknown): boolean {
  return typeof config === "object" && config !== null && (config as { enabled?: unknown }).enabled === false;
}

/**
 * Project trust, the last step: with a trust store, the project-level servers that would
 * start need the project's approval, keyed by the folder and the hash of every
 * project-level entry as written (so the answer does not depend on session
 * options or the user's environment). Unapproved ones move to `needsApproval`.
 * A trust store that fails counts as "not approved", reported in `errors`.
 */
async function applyProjectTrust({
  trust,
  projectDir,
  accepted,
  discovered,
  result,
}: {
  trust: ProjectTrust;
  projectDir: string;
  accepted: AcceptedServer[];
  discovered: readonly DiscoveredServer[];
  result: LoadConfigsResult;
}): Promise<AcceptedServer[]> {
  const fromProject = accepted.filter((server) => server.discovered.source.level === "project");
  if (fromProject.length === 0) return accepted;
  const hash = hashProjectServers(discovered);
  let approved = false;
  try {
    approved = (await trust.isApproved(projectDir, hash)) === true;
  } catch (error) {
    result.errors.push({
      path: projectDir,
      message: `could not check whether this project's servers are approved (${errorMessage(error)}); they wait for approval`,
    });
  }
  result.projectTrust = { projectDir, hash, approved };
  if (approved) return accepted;
  for (const server of fromProject) {
    result.needsApproval.push({ name: server.name, source: server.discovered.source, config: server.config });
  }
  return accepted.filter((server) => server.discovered.source.level !== "project");
}
