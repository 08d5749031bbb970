import { builtinSources, discoverServers, discoveryContext } from "../load-all-mcp-configs.js";
import type { DiscoveredServer, LoadConfigsOptions } from "../types.js";

/**
 * Every entry the sources of `loadAllMCPConfigs(cwd, options)` read, as their
 * files have them (placeholders not expanded): what `explain` shows a value
 * an expansion changed as, and how it knows the transport of servers that do
 * not start.
 */
export async function discoverEntries(
  cwd: string,
  options: LoadConfigsOptions = {},
): Promise<DiscoveredServer[]> {
  const outcome = await discoverServers(options.sources ?? builtinSources, discoveryContext(cwd, options));
  return outcome.servers;
}
