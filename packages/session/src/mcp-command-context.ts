import { homedir } from "node:os";
import {
  type LoadConfigsResult,
  loadAllMCPConfigs,
  type MCPManager,
  type MCPServerConfig,
  McpRtError,
  type SourceMeta,
} from "@mcp-rt/manager";
import type { AgentSession } from "./agent-session.js";
import { CommandText } from "./command-text.js";
import type { NativeConfigWriter } from "./native-config-writer.js";
import { ProjectTrustPolicy } from "./project-trust-policy.js";

/** Options of {@link MCPCommandContext}. */
export interface MCPCommandContextOptions {
  /** The session the commands work on. */
  session: AgentSession;
  /** Edits mcp-rt's own config files. */
  writer: NativeConfigWriter;
  /** How long commands that start servers wait for them (ms). */
  connectWaitMs: number;
  /** How long `/mcp test` waits (ms); undefined: the server's own `timeout`. */
  testTimeoutMs: number | undefined;
}

/**
 * What every `/mcp` command works with: the session and its manager, the
 * native config writer, discovery with the session's options, and the steps
 * commands share. How things are worded is {@link CommandText} (`text`); how an
 * edit keeps the project's approval is {@link ProjectTrustPolicy} (`trust`).
 */
export class MCPCommandContext {
  /** The session the commands work on. */
  readonly session: AgentSession;
  /** Edits mcp-rt's own config files. */
  readonly writer: NativeConfigWriter;
  /** How long commands that start servers wait for them. */
  readonly connectWaitMs: number;
  /** How long `/mcp test` waits, when set. */
  readonly testTimeoutMs: number | undefined;
  /** Paths, state lines and reasons, as `/mcp` words them. */
  readonly text: CommandText;
  /** The session's trust store and how edits keep an approval. */
  readonly trust: ProjectTrustPolicy;

  constructor(options: MCPCommandContextOptions) {
    const { session } = options;
    this.session = session;
    this.writer = options.writer;
    this.connectWaitMs = options.connectWaitMs;
    this.testTimeoutMs = options.testTimeoutMs;
    this.text = new CommandText({
      where: { cwd: session.cwd, homeDir: session.loadOptions.homeDir ?? homedir() },
      states: () => session.mcpManager?.getServerStates() ?? [],
      native: session.native,
    });
    this.trust = new ProjectTrustPolicy({
      trust: session.loadOptions.trust,
      discover: () => this.discover(),
    });
  }

  /** The session's manager (see {@link MCPCommandContext.requireManager}). */
  get manager(): MCPManager {
    return this.requireManager();
  }

  /**
   * The session's manager.
   *
   * @throws McpRtError `NOT_CONNECTED` when MCP is off in this session or it was disposed.
   */
  requireManager(): MCPManager {
    const { session } = this;
    if (!session.mcpManager || session.disposed) {
      const why = session.disposed
        ? "this session was disposed"
        : "MCP is off in this session (enableMCP: false)";
      throw new McpRtError("NOT_CONNECTED", `${why}.`);
    }
    return session.mcpManager;
  }

  /** Discovery with the session's own options (trust included). */
  discover(): Promise<LoadConfigsResult> {
    return loadAllMCPConfigs(this.session.cwd, this.session.loadOptions);
  }

  /** Every name any config file or the manager knows, sorted. */
  knownNames(discovery: LoadConfigsResult): string[] {
    const names = new Set<string>([
      ...Object.keys(discovery.configs),
      ...discovery.needsApproval.map((entry) => entry.name),
      ...(discovery.blocked ?? []).map((entry) => entry.name),
      ...discovery.disabled.map((entry) => entry.name),
      ...discovery.filtered.map((entry) => entry.name),
      ...discovery.shadowed.map((entry) => entry.name),
      ...discovery.errors.flatMap((issue) => (issue.server === undefined ? [] : [issue.server])),
      ...this.manager.getServerStates().map((state) => state.name),
    ]);
    return [...names].sort();
  }

  /** Where `name` is defined: the entry that counts, else one that does not start, else what the manager knows. */
  sourceOf(name: string, discovery: LoadConfigsResult): SourceMeta | undefined {
    const held = [
      ...discovery.needsApproval,
      ...(discovery.blocked ?? []),
      ...discovery.disabled,
      ...discovery.filtered,
      ...discovery.shadowed,
    ];
    return (
      discovery.sources[name] ??
      held.find((entry) => entry.name === name)?.source ??
      this.manager.getServerStates().find((state) => state.name === name)?.source
    );
  }

  /**
   * Connects the named servers that discovery now starts (waiting at most
   * `connectWaitMs`), and refreshes the session: its MCP tools, and its
   * native tools when the keys of the held-back servers changed.
   */
  async start(names: readonly string[]): Promise<LoadConfigsResult> {
    const discovery = await this.discover();
    const configs: Record<string, MCPServerConfig> = {};
    const sources: LoadConfigsResult["sources"] = {};
    for (const name of names) {
      const config = discovery.configs[name];
      const source = discovery.sources[name];
      if (config) configs[name] = config;
      if (config && source) sources[name] = source;
    }
    const started = Object.keys(configs);
    if (started.length > 0) {
      await this.manager.connectServers(configs, sources);
      const bound = AbortSignal.timeout(this.connectWaitMs);
      // Failures show in the state line; this only waits.
      await Promise.allSettled(
        started.map((name) => this.manager.waitForConnection(name, { signal: bound })),
      );
    }
    this.session.applyHeldBack(discovery.filtered);
    this.session.syncMCPTools();
    return discovery;
  }
}
