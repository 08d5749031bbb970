import { homedir } from "node:os";
import { join } from "node:path";
import {
  builtinSources,
  type CapabilitySource,
  createCacheFromUrl,
  createNativeSource,
  createTrustStore,
  type LoadConfigsOptions,
  type LoadConfigsResult,
  type Logger,
  loadAllMCPConfigs,
  MCPManager,
} from "@mcp-rt/manager";
import { AgentSession, MCPCommandController, SESSION_MAX_STARTUP_WAIT_MS } from "@mcp-rt/session";
import type { AgentArgs } from "./args.js";
import { createConfigFileSource } from "./config-file-source.js";
import { createDemoSource } from "./demo-config.js";
import type { StartupView } from "./startup-view.js";

/** How long a tool-cache read may take before it counts as a miss (the library's default is 100 ms). */
export const CACHE_READ_TIMEOUT_MS = 1000;

/** Options of {@link startSession}. */
export interface StartSessionOptions {
  args: AgentArgs;
  view: StartupView;
  logger: Logger;
  /** @default os.homedir() */
  homeDir?: string;
  /** Aborting it (Ctrl-C during startup) disconnects the servers still starting, so startup ends at once. */
  signal?: AbortSignal;
}

/** A running session and how it came to be. */
export interface StartedSession {
  session: AgentSession;
  /** The `/mcp` command controller of the session. */
  mcp: MCPCommandController;
  /** Why the embedded demo runs (`--demo`, or no config found); undefined when it does not. */
  demo: "flag" | "no-config" | undefined;
  /** Disconnects every server (waiting for pending cache writes), then closes the cache. Idempotent. */
  close(): Promise<void>;
}

/** True when discovery found nothing at all: no server, not even a disabled, shadowed or broken one. */
function foundNothing(result: LoadConfigsResult): boolean {
  return (
    Object.keys(result.configs).length === 0 &&
    result.needsApproval.length === 0 &&
    result.disabled.length === 0 &&
    result.shadowed.length === 0 &&
    result.filtered.length === 0 &&
    result.errors.length === 0
  );
}

/**
 * config → manager → session, spelled out (createAgentSession does the same in
 * one call, but hides the manager until every server passed the gate, and the
 * agent wants to show each server as it connects):
 *
 * 1. config: the sources to read (`--config` first, then the eight clients'
 *    files), project trust, and discovery; with `--demo`, or when nothing is
 *    configured, the embedded demo source instead;
 * 2. manager: the tool cache (`--cache`), then `connectServers` behind the
 *    250 ms startup gate, its events feeding the startup view;
 * 3. session: an `AgentSession` that puts the manager's tools in its registry
 *    and follows late servers, and the `/mcp` controller over it.
 */
export async function startSession(options: StartSessionOptions): Promise<StartedSession> {
  const { args, view, logger } = options;
  const homeDir = options.homeDir ?? homedir();

  // 1. config
  const extra: CapabilitySource[] = args.config ? [createConfigFileSource(args.config)] : [];
  const trust = createTrustStore(join(homeDir, ".mcp-rt", "trust.json"));
  const loadOptions: LoadConfigsOptions = {
    homeDir,
    enableProjectConfig: args.projectConfig,
    // This agent has no native Exa tool, so Exa servers connect like any other (§3.1).
    filterExa: false,
    trust,
    sources: [...extra, ...builtinSources],
  };
  let discovery = await loadAllMCPConfigs(args.cwd, loadOptions);
  const question = discovery.projectTrust;
  if (args.trustProject && question && !question.approved) {
    // Exactly what `/mcp trust` approves: this folder's current set of project-level servers.
    await trust.approve(question.projectDir, question.hash);
    discovery = await loadAllMCPConfigs(args.cwd, loadOptions);
  }
  let demo: StartedSession["demo"];
  if (args.demo || foundNothing(discovery)) {
    demo = args.demo ? "flag" : "no-config";
    // mcp-rt's own file stays in, so /mcp add, enable and disable keep working on the demo.
    loadOptions.sources = [...extra, createNativeSource(), createDemoSource()];
    discovery = await loadAllMCPConfigs(args.cwd, loadOptions);
  }

  // 2. manager
  // The manager reads the cache while the servers spawn, which can hold this
  // process's event loop for a while on a busy machine; a read counted as a
  // miss then costs a hard wait for the server, far worse than waiting for the read.
  const cache = await createCacheFromUrl(args.cache ?? "file:", {
    logger,
    readTimeoutMs: CACHE_READ_TIMEOUT_MS,
  });
  const manager = new MCPManager(args.cwd, {
    cache,
    logger,
    maxStartupWaitMs: SESSION_MAX_STARTUP_WAIT_MS,
  });
  view.begin(
    Object.keys(discovery.configs),
    discovery.needsApproval.map((entry) => entry.name),
    demo === "flag"
      ? "Running the embedded demo servers (--demo)."
      : demo === "no-config"
        ? `No MCP config found for ${args.cwd} or your home folder: running the embedded demo servers.`
        : undefined,
  );
  const detach = view.attach(manager);
  const stop = (): void => void manager.disconnectAll();
  options.signal?.addEventListener("abort", stop, { once: true });
  try {
    await manager.connectServers(discovery.configs, discovery.sources);
  } catch (error) {
    await manager.disconnectAll();
    await cache.close();
    throw error;
  } finally {
    options.signal?.removeEventListener("abort", stop);
    detach();
  }

  // 3. session
  const session = new AgentSession({ cwd: args.cwd, mcpManager: manager, loadOptions, logger });
  session.syncMCPTools();
  if (!options.signal?.aborted)
    view.finish({
      states: manager.getServerStates(),
      toolCount: session.mcpTools().length,
      problems: discovery.errors.map((issue) =>
        issue.server ? `${issue.server} (${issue.path}): ${issue.message}` : issue.message,
      ),
    });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= session.dispose().finally(() => cache.close());
    return closing;
  };
  return { session, mcp: new MCPCommandController(session), demo, close };
}
