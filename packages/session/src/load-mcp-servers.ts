import type { DiscoverAndConnectOptions, MCPLoadError, MCPLoadResult, MCPManager } from "@mcp-rt/manager";

/** What {@link loadMCPServers} found. */
export interface LoadedMCPServers {
  /** File problems, per-server failures (`mcp:<server>`), or one discovery failure (`.mcp.json`). */
  errors: MCPLoadError[];
  /** API keys of the Exa servers discovery left out. */
  exaApiKeys: string[];
}

/**
 * Session start on a manager the session already holds (§3.1, §3.3): discovery
 * and connect through `manager.discoverAndConnect`, problems reported the way
 * `discoverAndLoadMCPTools` reports them. Never throws. (That loader makes its
 * own manager, so it cannot hand it over before connecting, which `onManager`
 * promises; once it accepts a manager, this can go.)
 */
export async function loadMCPServers(
  manager: MCPManager,
  options: DiscoverAndConnectOptions,
): Promise<LoadedMCPServers> {
  let result: MCPLoadResult;
  try {
    result = await manager.discoverAndConnect(options);
  } catch (error) {
    return { errors: [{ path: ".mcp.json", error: messageOf(error) }], exaApiKeys: [] };
  }
  const errors: MCPLoadError[] = (result.discovery?.errors ?? []).map((issue) => ({
    path: issue.path,
    // Discovery's messages usually name the entry already (`servers.<name>: …`).
    error:
      issue.server === undefined || issue.message.includes(issue.server)
        ? issue.message
        : `${issue.server}: ${issue.message}`,
  }));
  for (const [server, error] of result.errors) errors.push({ path: `mcp:${server}`, error });
  return { errors, exaApiKeys: result.exaApiKeys };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
