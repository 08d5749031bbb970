import { homedir } from "node:os";
import { displayPath, plural } from "@mcp-rt/config/util";
import {
  type LoadConfigsResult,
  loadAllMCPConfigs,
  type MCPManager,
  type MCPServerConfig,
  type MCPServerState,
  type ProjectTrust,
  type SourceMeta,
} from "@mcp-rt/manager";
import type { AgentSession } from "./agent-session.js";
import { exaApiKeysFrom } from "./exa-rule.js";
import { failure, indent, type MCPCommandResult } from "./mcp-command-result.js";
import type { ConfigScope, NativeConfigWriter } from "./native-config-writer.js";

/** What every `/mcp` subcommand works with, and the steps they share. */
export class MCPCommandContext {
  readonly session: AgentSession;
  readonly manager: MCPManager;
  readonly writer: NativeConfigWriter;
  /** How long commands that start servers wait for them. */
  readonly connectWaitMs: number;
  /** How long `/mcp test` waits, when set. */
  readonly testTimeoutMs: number | undefined;

  constructor(options: {
    session: AgentSession;
    manager: MCPManager;
    writer: NativeConfigWriter;
    connectWaitMs: number;
    testTimeoutMs: number | undefined;
  }) {
    this.session = options.session;
    this.manager = options.manager;
    this.writer = options.writer;
    this.connectWaitMs = options.connectWaitMs;
    this.testTimeoutMs = options.testTimeoutMs;
  }

  /** A path as a person reads it. */
  show(path: string): string {
    return displayPath(path, this.where);
  }

  /** Where paths are shown relative to. */
  get where(): { cwd: string; homeDir: string } {
    return { cwd: this.session.cwd, homeDir: this.session.loadOptions.homeDir ?? homedir() };
  }

  /** The session's trust store, when project trust is on. */
  get trust(): ProjectTrust | undefined {
    const { trust } = this.session.loadOptions;
    return trust === "all" ? undefined : trust;
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

  /** The answer to a name nobody knows. */
  unknownServer(name: string, known: string[]): MCPCommandResult {
    const list = known.length > 0 ? `Known servers: ${known.join(", ")}.` : "No MCP servers are configured.";
    return failure("UNKNOWN_SERVER", `No MCP server named "${name}". ${list}`, { known });
  }

  /**
   * Runs the user's own edit of a native file. An edit of the project's file
   * changes the hash of the project's servers; an approval that held before
   * (or a project that had nothing to approve) is renewed only when what
   * would run afterwards is what ran before, plus the servers the user wrote
   * in this very edit (`written`, e.g. `/mcp add`). A project server the edit
   * brings back (`/mcp enable` of one the project disabled) is never approved
   * on the user's behalf: it waits for `/mcp trust`, which shows what it runs.
   */
  async keepingTrust<T>(
    scope: ConfigScope,
    edit: () => Promise<T>,
    written: readonly string[] = [],
  ): Promise<T> {
    const trust = this.trust;
    if (!trust || scope !== "project") return edit();
    const before = await this.discover();
    const result = await edit();
    if (before.projectTrust !== undefined && !before.projectTrust.approved) return result;
    const after = await this.discover();
    const asked = after.projectTrust;
    if (asked === undefined || asked.approved) return result;
    const ran = new Map(
      Object.entries(before.configs)
        .filter(([name]) => before.sources[name]?.level === "project")
        .map(([name, config]) => [name, comparable(config)]),
    );
    const reviewed = after.needsApproval.every(
      (entry) => written.includes(entry.name) || ran.get(entry.name) === comparable(entry.config),
    );
    if (reviewed) await trust.approve(asked.projectDir, asked.hash);
    return result;
  }

  /**
   * Connects the named servers that discovery now starts (waiting at most
   * `connectWaitMs`), and refreshes the session: its MCP tools, and its native
   * Exa tools when the Exa keys changed.
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
    this.session.applyExaApiKeys(exaApiKeysFrom(discovery.filtered));
    this.session.syncMCPTools();
    return discovery;
  }

  /** One line on where a server stands now, as the manager sees it. */
  stateLine(name: string): { line: string; state: MCPServerState | undefined } {
    const state = this.manager.getServerStates().find((entry) => entry.name === name);
    if (!state) return { line: `○ ${name}: not running`, state: undefined };
    switch (state.status) {
      case "connected":
        return {
          line: `● ${name}: connected, ${plural(state.toolCount, "tool")}${state.connectedMs === undefined ? "" : ` in ${Math.round(state.connectedMs)} ms`}`,
          state,
        };
      case "needs-auth":
        return { line: `🔒 ${name}: needs you to sign in; run /mcp login ${name}`, state };
      case "failed": {
        const tail = state.lastError?.stderrTail?.trimEnd();
        return {
          line: `✗ ${name}: failed${state.lastError ? ` — ${state.lastError.message}` : ""}${tail ? `\n  stderr:\n${indent(tail, "    ")}` : ""}`,
          state,
        };
      }
      default:
        return {
          line: `◌ ${name}: ${state.deferred ? `starting; ${state.toolCount} tools from the cache meanwhile` : "still connecting; its tools follow when it is up"}`,
          state,
        };
    }
  }

  /** Why discovery does not start `name`, or `undefined` when it does. */
  whyNotStarted(name: string, discovery: LoadConfigsResult): string | undefined {
    const where = (path: string): string => displayPath(path, this.where);
    const approval = discovery.needsApproval.find((entry) => entry.name === name);
    if (approval) return `? ${name} waits for project approval: review it, then run /mcp trust`;
    const disabled = discovery.disabled.find((entry) => entry.name === name);
    if (disabled) {
      return `– ${name} is still disabled by its own config in ${where(disabled.source.path)} (${disabled.source.providerName}); mcp-rt does not edit other clients' files, change \`enabled\` there`;
    }
    if (discovery.filtered.some((entry) => entry.name === name)) {
      return `– ${name} is an Exa server; this session uses its native Exa tool instead`;
    }
    const issues = discovery.errors.filter((issue) => issue.server === name);
    if (issues.length > 0)
      return `✗ ${name} has an invalid config: ${issues.map((issue) => issue.message).join("; ")}`;
    return undefined;
  }
}

/** A config as compared across an edit: a pin (`alwaysLoad`) is not a change to approve. */
function comparable(config: MCPServerConfig | undefined): string {
  if (config === undefined) return "";
  const { alwaysLoad: _pin, ...rest } = config;
  return JSON.stringify(rest);
}
