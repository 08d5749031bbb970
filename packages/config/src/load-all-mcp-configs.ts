import { homedir } from "node:os";
import { resolve } from "node:path";
import { setOwn } from "./describe-value.js";
import { discoverServers } from "./discover-servers.js";
import { exaApiKeysOf, isExaServer } from "./exa.js";
import { memoizeResolveInput } from "./interpolate.js";
import { prepareServer } from "./prepare-server.js";
import type { MCPServerConfig } from "./server-config.js";
import { builtinSources } from "./sources/builtin-sources.js";
import type { DiscoveredServer, DiscoveryContext, LoadConfigsOptions, LoadConfigsResult } from "./types.js";

/** A server that passed every step so far: its usable config and the entry it came from. */
interface AcceptedServer {
  name: string;
  config: MCPServerConfig;
  /** The entry as discovered: mapped field names, placeholders not yet expanded. */
  discovered: DiscoveredServer;
}

/**
 * Finds the MCP servers configured for a project folder in every known
 * client's files (§7), and explains every one it will not start.
 *
 * Order of operations: sources not allowed (project level with
 * `enableProjectConfig: false`) are not read at all; duplicates are resolved
 * by priority (→ `shadowed`); the winner's `enabled: false` or its name in the
 * native `disabledServers` (→ `disabled`); placeholder expansion and
 * validation (→ `errors`); Exa filtering (→ `filtered`, keys in
 * `exaApiKeys`). Never throws for bad input: unreadable files, syntax errors,
 * wrong shapes and invalid entries come back in `errors`, each with the file
 * path, and everything else still loads.
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
  const ctx: DiscoveryContext = {
    cwd: resolve(cwd),
    homeDir: options.homeDir ?? homedir(),
    env: options.env ?? process.env,
    platform: options.platform ?? process.platform,
    enableProjectConfig: options.enableProjectConfig !== false,
  };
  const result: LoadConfigsResult = {
    configs: {},
    sources: {},
    exaApiKeys: [],
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
  const filterExa = options.filterExa !== false;
  const accepted: AcceptedServer[] = [];
  enabled.forEach((server, i) => {
    const outcome = prepared[i];
    if (outcome === undefined) return;
    if ("issue" in outcome) {
      result.errors.push(outcome.issue);
    } else if (filterExa && isExaServer(server.name, outcome.config)) {
      result.filtered.push({ name: server.name, source: server.source, reason: "exa" });
      for (const key of exaApiKeysOf(outcome.config)) {
        if (!result.exaApiKeys.includes(key)) result.exaApiKeys.push(key);
      }
    } else {
      accepted.push({ name: server.name, config: outcome.config, discovered: server });
    }
  });

  // ── §8 project trust plugs in here ──────────────────────────────────────
  // With `options.trust`, the project-level servers of `accepted` start only
  // once their project is approved; until then they move to
  // `result.needsApproval`. `discovered.config` is each entry as written
  // (before `${…}` expansion), which is what the approval hash covers.
  // Without `trust` every project server is trusted (the document's behaviour).

  for (const server of accepted) {
    setOwn(result.configs, server.name, server.config);
    setOwn(result.sources, server.name, server.discovered.source);
  }
  return result;
}

function isSwitchedOff(config: unknown): boolean {
  return typeof config === "object" && config !== null && (config as { enabled?: unknown }).enabled === false;
}
