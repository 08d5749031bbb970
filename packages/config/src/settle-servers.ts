import type { DiscoveryOutcome } from "./discover-servers.js";
import { type PrepareServerOptions, prepareServer } from "./prepare-server.js";
import type { MCPServerConfig } from "./server-config.js";
import type { DiscoveredServer, DiscoveryContext, LoadConfigsOptions, LoadConfigsResult } from "./types.js";

/** A server that passed every step so far: its usable config and the entry it came from. */
export interface AcceptedServer {
  name: string;
  config: MCPServerConfig;
  /** The entry as discovered: mapped field names, placeholders not yet expanded. */
  discovered: DiscoveredServer;
  /** The env file it reads (or, not read yet, would read). */
  envFile?: string;
}

/** What the loader's steps after discovery made of one discovery, before project trust. */
export interface SettledServers
  extends Pick<LoadConfigsResult, "errors" | "shadowed" | "disabled" | "filtered"> {
  /** In precedence order; `alwaysLoadServers` pins already applied. */
  accepted: AcceptedServer[];
  /** The env files the entries read or would read. */
  envFiles: Set<string>;
}

/**
 * The loader's steps 2 to 5 over one discovery: duplicates by priority (→
 * `shadowed`), `enabled: false` and `disabledServers` (→ `disabled`),
 * expansion and validation (→ `errors`), the caller's `reserve` rule (→
 * `filtered`). Pins (`alwaysLoadServers`) are applied to what is left.
 */
export async function settleServers(
  discovery: DiscoveryOutcome,
  ctx: DiscoveryContext,
  options: Pick<LoadConfigsOptions, "reserve"> & PrepareServerOptions,
): Promise<SettledServers> {
  const settled: SettledServers = {
    accepted: [],
    errors: [...discovery.issues],
    shadowed: [],
    disabled: [],
    filtered: [],
    envFiles: new Set(),
  };

  // Priority: the first entry of a name wins, the rest are shadowed by it.
  const winners = new Map<string, DiscoveredServer>();
  for (const server of discovery.servers) {
    const winner = winners.get(server.name);
    if (winner === undefined) winners.set(server.name, server);
    else settled.shadowed.push({ name: server.name, source: server.source, by: winner.source });
  }

  const enabled = [...winners.values()].filter((server) => {
    const off = isSwitchedOff(server.config) || discovery.disabledServers.has(server.name);
    if (off) settled.disabled.push({ name: server.name, source: server.source });
    return !off;
  });

  const prepared = await Promise.all(enabled.map((server) => prepareServer(server, ctx, options)));
  enabled.forEach((server, i) => {
    const outcome = prepared[i];
    if (outcome === undefined) return;
    if (outcome.envFile !== undefined) settled.envFiles.add(outcome.envFile);
    if ("issue" in outcome) {
      settled.errors.push(outcome.issue);
      return;
    }
    const reserved = options.reserve?.({ name: server.name, config: outcome.config, source: server.source });
    if (reserved) {
      settled.filtered.push({
        name: server.name,
        source: server.source,
        reason: reserved.reason,
        keys: [...(reserved.keys ?? [])],
      });
      return;
    }
    // A pin is not a change to approve: trust hashes entries as written.
    const pinned = discovery.alwaysLoadServers.has(server.name) && outcome.config.alwaysLoad !== true;
    settled.accepted.push({
      name: server.name,
      config: pinned ? { ...outcome.config, alwaysLoad: true } : outcome.config,
      discovered: server,
      ...(outcome.envFile !== undefined ? { envFile: outcome.envFile } : {}),
    });
  });
  return settled;
}

function isSwitchedOff(config: unknown): boolean {
  return typeof config === "object" && config !== null && (config as { enabled?: unknown }).enabled === false;
}
