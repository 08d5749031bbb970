import { homedir } from "node:os";
import { mcpRtPath } from "@mcp-rt/config";
import { POLICY_NAMES } from "@mcp-rt/config/explain";
import { displayPath } from "@mcp-rt/config/util";
import {
  type AgentSession,
  type AuthStorage,
  builtinSources,
  type CapabilitySource,
  createAgentSession,
  createAuthStorage,
  createCacheFromUrl,
  createNativeSource,
  createTrustStore,
  type ElicitationHandler,
  type LoadConfigsResult,
  type Logger,
  loadAllMCPConfigs,
  MCPCommandController,
  type MCPToolCache,
  McpRtError,
  toLoadErrors,
} from "@mcp-rt/session";
import type { AgentArgs } from "./args.js";
import { createConfigFileSource } from "./config-file-source.js";
import { createDemoSource } from "./demo-config.js";
import type { StartupView } from "./startup-view.js";

/** A `--cache` or `--auth` URL that cannot be used: the agent says so and starts nothing. */
export class CacheUrlError extends Error {}

/**
 * The credential store `--auth` names (default `~/.mcp-rt/auth.json`, 0600):
 * API keys and OAuth sign-ins. Nothing is read yet.
 *
 * @throws CacheUrlError for a URL that cannot be used, naming the flag.
 */
export function openAuthStore(url: string | undefined): AuthStorage {
  try {
    return createAuthStorage(url);
  } catch (error) {
    if (McpRtError.isInstance(error)) throw new CacheUrlError(`--auth: ${error.message}`);
    throw error;
  }
}

/**
 * The tool cache `--cache` names (`memory:`, `file:…`, `redis://…`; default
 * the file store in the user's cache folder). Nothing connects yet.
 *
 * @throws CacheUrlError for a URL that cannot be used, naming the flag.
 */
export async function openToolCache(url: string | undefined, logger: Logger): Promise<MCPToolCache> {
  try {
    return await createCacheFromUrl(url ?? "file:", { logger });
  } catch (error) {
    if (McpRtError.isInstance(error)) throw new CacheUrlError(`--cache: ${error.message}`);
    throw error;
  }
}

/** Options of {@link startSession}. */
export interface StartSessionOptions {
  /** The command line. */
  args: AgentArgs;
  /** Where startup shows the servers. */
  view: StartupView;
  /** Where the library's warnings go (late failures, cache trouble). */
  logger: Logger;
  /** The tool cache, from {@link openToolCache}; `close()` closes it after the servers. */
  cache: MCPToolCache;
  /** Where API keys and sign-ins live, from {@link openAuthStore}; `close()` closes it after the servers. */
  authStorage: AuthStorage;
  /** Answers servers that ask the user for input (see `createElicitationHandler`). */
  onElicitation?: ElicitationHandler;
  /** Reads a secret without echo, for `/mcp key` (the REPL's, or stdin's with `--exec`). */
  readSecret: (prompt: string, signal?: AbortSignal) => Promise<string>;
  /** @default os.homedir() */
  homeDir?: string;
  /** Aborting it (Ctrl-C during startup) disconnects the servers still starting, so startup ends at once. */
  signal?: AbortSignal;
}

/** A running session and how it came to be. */
export interface StartedSession {
  /** The session: its registry holds the MCP tools, live. */
  session: AgentSession;
  /** The `/mcp` command controller of the session. */
  mcp: MCPCommandController;
  /** Why the embedded demo runs (`--demo`, or no config found); undefined when it does not. */
  demo: "flag" | "no-config" | undefined;
  /** Disconnects every server (waiting for pending cache writes), then closes the cache. Idempotent. */
  close(): Promise<void>;
}

/** True when discovery found nothing at all: no server, not even a disabled, shadowed, forbidden or broken one. */
function foundNothing(result: LoadConfigsResult): boolean {
  return (
    Object.keys(result.configs).length === 0 &&
    result.needsApproval.length === 0 &&
    (result.blocked ?? []).length === 0 &&
    result.disabled.length === 0 &&
    result.shadowed.length === 0 &&
    result.filtered.length === 0 &&
    result.errors.length === 0
  );
}

/**
 * config → manager → session, with `createAgentSession`:
 *
 * 1. config: the sources to read (`--config` first, then the nine clients'
 *    files, or with `--demo` the embedded demo source), and project trust
 *    (`--trust-project` approves what the project asks about now);
 * 2. manager: `createAgentSession` makes it with the tool cache (`--cache`,
 *    opened by {@link openToolCache}) and hands it over (`onManager`) before
 *    any server connects, so the startup view follows every server; it
 *    discovers (the view lists what it found, `onDiscovered`) and connects,
 *    returning as soon as each server is up or has cached tools
 *    (`startupMode: "cache-first"`, never later than the 250 ms gate). When
 *    nothing at all is configured, that empty session is closed and one on
 *    the embedded demo source starts instead;
 * 3. session: the tools go into the session's registry and follow late
 *    servers; the `/mcp` controller works on the same sources and trust.
 *
 * A start reads the config files once (twice only with `--trust-project`,
 * whose approval comes first, or when the demo replaces an empty config).
 */
export async function startSession(options: StartSessionOptions): Promise<StartedSession> {
  const { args, view, logger, signal, cache, authStorage } = options;
  const homeDir = options.homeDir ?? homedir();

  // 1. config
  const extra: CapabilitySource[] = args.config ? [createConfigFileSource(args.config)] : [];
  const trust = createTrustStore(mcpRtPath("trust.json", homeDir));
  // This agent has no native Exa tool and passes no `reserve` rule, so Exa servers connect like any other.
  const discovery = (sources: CapabilitySource[]) => ({
    homeDir,
    enableProjectConfig: args.projectConfig,
    trust,
    sources,
  });
  const clients = [...extra, ...builtinSources];
  // mcp-rt's own file stays in, so /mcp add, enable and disable keep working on the demo.
  const demoSources = [...extra, createNativeSource(), createDemoSource()];
  if (args.trustProject) {
    // Exactly what `/mcp trust` approves: this folder's current set of project-level servers.
    const question = (await loadAllMCPConfigs(args.cwd, discovery(clients))).projectTrust;
    if (question && !question.approved) await trust.approve(question.projectDir, question.hash);
  }

  // 2. manager, and 3. session
  const start = async (demo: StartedSession["demo"]) => {
    let detach = (): void => {};
    let found: LoadConfigsResult | undefined;
    const started = await createAgentSession({
      cwd: args.cwd,
      discovery: discovery(demo ? demoSources : clients),
      manager: {
        cache,
        authStorage,
        // A warm start hands the cached tools over at once; live ones replace them as servers come up.
        startupMode: "cache-first",
        // A tool that changed since the user approved it is held, and the notice shows the difference and asks.
        toolChanges: args.toolChanges,
        ...(args.healthCheckMs === undefined ? {} : { healthCheckIntervalMs: args.healthCheckMs }),
        ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
      },
      logger,
      // Edits of any config file apply as they happen; each change is one line (server-notices.ts).
      watch: args.watch,
      ...(args.toolSearch === undefined ? {} : { toolSearch: args.toolSearch }),
      // The startup view shows every failure on its server's line, and file problems below.
      logErrors: false,
      onManager: (manager) => {
        detach = view.attach(manager);
      },
      onDiscovered: (result) => {
        found = result;
        // Nothing configured: the demo takes over, and the view begins with it.
        if (!demo && foundNothing(result)) return;
        const where = { cwd: args.cwd, homeDir };
        view.begin({
          names: Object.keys(result.configs),
          approval: result.needsApproval.map((entry) => entry.name),
          blocked: (result.blocked ?? []).map(({ name, policy, rule, policyFile }) => ({
            name,
            why: `${POLICY_NAMES[policy]} (${displayPath(policyFile, where)}): ${rule}`,
          })),
          note:
            demo === "flag"
              ? "Running the embedded demo servers (--demo)."
              : demo === "no-config"
                ? `No MCP config found for ${args.cwd} or your home folder: running the embedded demo servers.`
                : undefined,
        });
      },
      ...(signal ? { signal } : {}),
    });
    detach();
    return { ...started, found };
  };
  let demo: StartedSession["demo"] = args.demo ? "flag" : undefined;
  let started = await start(demo);
  if (!demo && started.found && foundNothing(started.found) && !signal?.aborted) {
    await started.session.dispose();
    demo = "no-config";
    started = await start(demo);
  }
  const { session, mcpProblems } = started;
  // Discovery itself failed: the view has no servers to list, only the problem.
  if (!started.found) view.begin({ names: [], approval: [] });
  if (!signal?.aborted)
    view.finish({
      states: session.mcpManager?.getServerStates() ?? [],
      toolCount: session.mcpTools().length,
      // Server failures are on their server's line already.
      problems: toLoadErrors(mcpProblems.filter((problem) => problem.kind !== "server")).map(
        ({ path, error }) => (error.includes(path) ? error : `${path}: ${error}`),
      ),
    });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    // The manager closes only what it opened itself: this cache and auth store are ours.
    closing ??= session.dispose().finally(() => Promise.allSettled([cache.close(), authStorage.close?.()]));
    return closing;
  };
  return { session, mcp: new MCPCommandController(session, { readSecret: options.readSecret }), demo, close };
}
