import { homedir } from "node:os";
import {
  closeConnection,
  connectToServer,
  type LoadConfigsResult,
  listTools,
  loadAllMCPConfigs,
  type MCPManager,
  type MCPServerConfig,
  type MCPServerConnection,
  McpRtError,
  type ProjectTrust,
  resolveServerConfig,
} from "@mcp-rt/manager";
import type { AgentSession } from "./agent-session.js";
import { splitCommandLine } from "./command-line.js";
import { displayPath } from "./display-path.js";
import { explainServer } from "./explain-server.js";
import {
  type AddArgs,
  parseAddArgs,
  parseNameArgs,
  parseNoArgs,
  parseRemoveArgs,
  type RemoveArgs,
  USAGE,
} from "./mcp-command-args.js";
import { buildServerList, formatServerList } from "./mcp-server-list.js";
import {
  type ConfigScope,
  createNativeConfigWriter,
  type NativeConfigWriter,
} from "./native-config-writer.js";
import { probeProjectTrust } from "./project-trust-probe.js";

/** What a `/mcp` command returns: text for a terminal, data for a UI. */
export interface MCPCommandResult {
  /** What to print. */
  text: string;
  /** The same facts, structured (the list, the test result, the error…). */
  data?: unknown;
  /** False when the command did not do what was asked (bad input, unknown server, failure). */
  ok: boolean;
}

/** Options of {@link MCPCommandController}. */
export interface MCPCommandControllerOptions {
  /** Edits the native config files. @default a writer for the session's cwd and home */
  writer?: NativeConfigWriter;
  /** How long `/mcp test` waits for connect + `tools/list`. @default the server's `timeout`, else 30000 */
  testTimeoutMs?: number;
  /**
   * How long `enable`, `add`, `remove` and `trust` wait for the servers they
   * start before answering; a slower server shows as still connecting and its
   * tools follow. @default 5000
   */
  connectWaitMs?: number;
}

const DESCRIPTIONS: Record<string, string> = {
  help: "this help",
  list: "every configured server: status, tools, connect time, last error",
  reload: "disconnect everything, read the config files again, reconnect",
  enable: "turn a server on (saved in ~/.mcp-rt/mcp.json or .mcp-rt/mcp.json)",
  disable: "turn a server off; other servers keep running",
  add: "add a server to mcp-rt's own config and start it",
  remove: "remove a server from mcp-rt's own config and stop it",
  test: "connect once, list the tools, disconnect",
  explain: "where a server is defined and why it does or does not start",
  trust: "approve this project's project-level servers and start them",
  untrust: "withdraw that approval and stop them",
};

const HELP_TEXT = [
  "MCP commands:",
  ...Object.entries(USAGE).map(([name, usage]) => `  ${usage}\n      ${DESCRIPTIONS[name]}`),
].join("\n");

const ok = (text: string, data?: unknown): MCPCommandResult =>
  data === undefined ? { ok: true, text } : { ok: true, text, data };

const failure = (code: string, message: string, extra: Record<string, unknown> = {}): MCPCommandResult => ({
  ok: false,
  text: `✗ ${message}`,
  data: { error: { code, message, ...extra } },
});

const usageError = (sub: string, problem: string): MCPCommandResult => ({
  ok: false,
  text: `✗ ${problem}\nUsage: ${USAGE[sub]}`,
  data: { error: { code: "USAGE", message: problem, usage: USAGE[sub] } },
});

/**
 * The `/mcp` command of an agent: `handle("/mcp list")` and friends. Commands
 * run one at a time; none throws: bad input, unknown servers and failures come
 * back as `ok: false` with a message saying what to change.
 *
 * @example
 * ```ts
 * const mcp = new MCPCommandController(session);
 * const { text } = await mcp.handle("/mcp disable github");
 * ```
 */
export class MCPCommandController {
  readonly #session: AgentSession;
  readonly #writer: NativeConfigWriter;
  readonly #testTimeoutMs: number | undefined;
  readonly #connectWaitMs: number;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(session: AgentSession, options: MCPCommandControllerOptions = {}) {
    this.#session = session;
    this.#writer =
      options.writer ??
      createNativeConfigWriter({ cwd: session.cwd, homeDir: session.loadOptions.homeDir ?? homedir() });
    this.#testTimeoutMs = options.testTimeoutMs;
    this.#connectWaitMs = options.connectWaitMs ?? 5000;
  }

  /** Runs one command line, `/mcp <subcommand> …` (the `/mcp` prefix is optional). */
  handle(line: string): Promise<MCPCommandResult> {
    const run = this.#queue.then(() => this.#handle(line));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #handle(line: string): Promise<MCPCommandResult> {
    const split = splitCommandLine(line);
    if (!split.ok)
      return {
        ok: false,
        text: `✗ ${split.error}\n${HELP_TEXT}`,
        data: { error: { code: "USAGE", message: split.error } },
      };
    const words = split.words;
    if (words[0] === "/mcp" || words[0] === "mcp") words.shift();
    const [sub = "list", ...args] = words;
    if (!Object.hasOwn(USAGE, sub)) {
      return {
        ok: false,
        text: `✗ Unknown subcommand "${sub}".\n${HELP_TEXT}`,
        data: { error: { code: "USAGE", message: `unknown subcommand "${sub}"` }, usage: USAGE },
      };
    }
    if (sub === "help") {
      const none = parseNoArgs(args);
      return none.ok ? ok(HELP_TEXT, { usage: USAGE }) : usageError(sub, none.error);
    }
    const manager = this.#session.mcpManager;
    if (!manager || this.#session.disposed) {
      const why = this.#session.disposed
        ? "this session was disposed"
        : "MCP is off in this session (enableMCP: false)";
      return failure("NOT_CONNECTED", `${why}.`);
    }
    try {
      return await this.#dispatch(sub, args, manager);
    } catch (error) {
      const code = McpRtError.isInstance(error) ? error.code : "ERROR";
      return failure(code, error instanceof Error ? error.message : String(error));
    }
  }

  async #dispatch(sub: string, args: string[], manager: MCPManager): Promise<MCPCommandResult> {
    switch (sub) {
      case "list":
      case "reload":
      case "trust":
      case "untrust": {
        const none = parseNoArgs(args);
        if (!none.ok) return usageError(sub, none.error);
        if (sub === "list") return this.#list(manager);
        if (sub === "reload") return this.#reload(manager);
        return sub === "trust" ? this.#trust(manager) : this.#untrust(manager);
      }
      case "add": {
        const parsed = parseAddArgs(args);
        return parsed.ok ? this.#add(parsed.value, manager) : usageError(sub, parsed.error);
      }
      case "remove": {
        const parsed = parseRemoveArgs(args);
        return parsed.ok ? this.#remove(parsed.value, manager) : usageError(sub, parsed.error);
      }
      default: {
        const parsed = parseNameArgs(args);
        if (!parsed.ok) return usageError(sub, parsed.error);
        if (sub === "enable") return this.#enable(parsed.value, manager);
        if (sub === "disable") return this.#disable(parsed.value, manager);
        if (sub === "test") return this.#test(parsed.value, manager);
        return this.#explain(parsed.value, manager);
      }
    }
  }

  // ── helpers ────────────────────────────────────────────────────────────

  get #where(): { cwd: string; homeDir: string } {
    return { cwd: this.#session.cwd, homeDir: this.#session.loadOptions.homeDir ?? homedir() };
  }

  get #trustStore(): ProjectTrust | undefined {
    return this.#session.loadOptions.trust;
  }

  #discover(): Promise<LoadConfigsResult> {
    return loadAllMCPConfigs(this.#session.cwd, this.#session.loadOptions);
  }

  #knownNames(discovery: LoadConfigsResult, manager: MCPManager): string[] {
    const names = new Set<string>([
      ...Object.keys(discovery.configs),
      ...discovery.needsApproval.map((entry) => entry.name),
      ...discovery.disabled.map((entry) => entry.name),
      ...discovery.filtered.map((entry) => entry.name),
      ...discovery.shadowed.map((entry) => entry.name),
      ...discovery.errors.flatMap((issue) => (issue.server === undefined ? [] : [issue.server])),
      ...manager.getServerStates().map((state) => state.name),
    ]);
    return [...names].sort();
  }

  #unknownServer(name: string, known: string[]): MCPCommandResult {
    const list = known.length > 0 ? `Known servers: ${known.join(", ")}.` : "No MCP servers are configured.";
    return failure("UNKNOWN_SERVER", `No MCP server named "${name}". ${list}`, { known });
  }

  /**
   * Runs an edit of a project-level native file. Such an edit may change the
   * hash of the project's servers; an approval that held before the user's
   * own edit is renewed so the project does not fall back to "needs approval".
   */
  async #keepingTrust<T>(scope: ConfigScope, edit: () => Promise<T>): Promise<T> {
    const trust = this.#trustStore;
    if (!trust || scope !== "project") return edit();
    const before = await probeProjectTrust(this.#session.cwd, this.#session.loadOptions, trust);
    const result = await edit();
    if (before.asked === undefined || before.asked.approved) {
      const after = await probeProjectTrust(this.#session.cwd, this.#session.loadOptions, trust);
      if (after.asked && !after.asked.approved) await trust.approve(after.asked.projectDir, after.asked.hash);
    }
    return result;
  }

  /** Connects the named servers that discovery now starts, and refreshes the session. */
  async #start(names: readonly string[], manager: MCPManager): Promise<LoadConfigsResult> {
    const discovery = await this.#discover();
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
      await manager.connectServers(configs, sources);
      const bound = AbortSignal.timeout(this.#connectWaitMs);
      // Failures show in the state line; this only waits.
      await Promise.allSettled(started.map((name) => manager.waitForConnection(name, { signal: bound })));
    }
    this.#session.syncMCPTools();
    return discovery;
  }

  /** One line on where a server stands now, as the manager sees it. */
  #stateLine(name: string, manager: MCPManager): { line: string; state: unknown } {
    const state = manager.getServerStates().find((entry) => entry.name === name);
    if (!state) return { line: `○ ${name}: not running`, state: undefined };
    switch (state.status) {
      case "connected":
        return {
          line: `● ${name}: connected, ${state.toolCount} tool${state.toolCount === 1 ? "" : "s"}${state.connectedMs === undefined ? "" : ` in ${Math.round(state.connectedMs)} ms`}`,
          state,
        };
      case "failed":
      case "needs-auth": {
        const glyph = state.status === "failed" ? "✗" : "🔒";
        const tail = state.lastError?.stderrTail?.trimEnd();
        return {
          line: `${glyph} ${name}: ${state.status.replace("-", " ")}${state.lastError ? ` — ${state.lastError.message}` : ""}${tail ? `\n  stderr:\n${indent(tail, "    ")}` : ""}`,
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

  #whyNotStarted(name: string, discovery: LoadConfigsResult): string | undefined {
    const where = (path: string): string => displayPath(path, this.#where);
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

  // ── subcommands ────────────────────────────────────────────────────────

  async #list(manager: MCPManager): Promise<MCPCommandResult> {
    const discovery = await this.#discover();
    const list = buildServerList(discovery, manager.getServerStates(), this.#where);
    return ok(formatServerList(list, this.#where), list);
  }

  async #reload(manager: MCPManager): Promise<MCPCommandResult> {
    const started = performance.now();
    const result = await this.#session.reloadMCP();
    const ms = Math.round(performance.now() - started);
    const states = manager.getServerStates();
    const pending = states.filter((state) => state.status === "connecting").map((state) => state.name);
    const lines = [
      `Reloaded MCP in ${ms} ms: ${result.connectedServers.length} server${result.connectedServers.length === 1 ? "" : "s"} connected, ${manager.getTools().length} tools.`,
    ];
    if (pending.length > 0) lines.push(`◌ still connecting: ${pending.join(", ")} (their tools follow)`);
    for (const [name, message] of result.errors) lines.push(`✗ ${name}: ${message}`);
    for (const issue of result.discovery?.errors ?? []) {
      if (!issue.server || !result.errors.has(issue.server)) {
        lines.push(
          `✗ ${displayPath(issue.path, this.#where)}: ${issue.server ? `${issue.server}: ` : ""}${issue.message}`,
        );
      }
    }
    const waiting = result.discovery?.needsApproval.map((entry) => entry.name) ?? [];
    if (waiting.length > 0) lines.push(`? waiting for project approval: ${waiting.join(", ")} (/mcp trust)`);
    return ok(lines.join("\n"), {
      connectedServers: result.connectedServers,
      pending,
      errors: Object.fromEntries(result.errors),
      needsApproval: waiting,
      toolCount: manager.getTools().length,
      ms,
    });
  }

  async #enable(name: string, manager: MCPManager): Promise<MCPCommandResult> {
    const before = await this.#discover();
    const known = this.#knownNames(before, manager);
    if (!known.includes(name)) return this.#unknownServer(name, known);
    const files = await this.#keepingTrust("project", () => this.#writer.enableServer(name));
    const running = manager.getConnectionStatus(name) !== "disconnected";
    const after = running ? await this.#discover() : await this.#start([name], manager);
    const blocked = this.#whyNotStarted(name, after);
    const saved =
      files.length > 0
        ? `Enabled ${name} (saved in ${files.map((file) => displayPath(file, this.#where)).join(", ")}).`
        : `${name} was not disabled in mcp-rt's config.`;
    if (blocked) return { ok: false, text: `${saved}\n${blocked}`, data: { name, files, started: false } };
    const { line, state } = this.#stateLine(name, manager);
    return ok(`${saved}\n${line}`, { name, files, started: true, state });
  }

  async #disable(name: string, manager: MCPManager): Promise<MCPCommandResult> {
    const discovery = await this.#discover();
    const known = this.#knownNames(discovery, manager);
    if (!known.includes(name)) return this.#unknownServer(name, known);
    const source =
      discovery.sources[name] ??
      [...discovery.needsApproval, ...discovery.disabled, ...discovery.filtered].find(
        (entry) => entry.name === name,
      )?.source ??
      manager.getServerStates().find((state) => state.name === name)?.source;
    const scope: ConfigScope = source?.level ?? "user";
    const already = discovery.disabled.some((entry) => entry.name === name);
    const file = already
      ? undefined
      : await this.#keepingTrust(scope, () => this.#writer.disableServer(name, scope));
    const wasRunning = manager.getConnectionStatus(name) !== "disconnected";
    await manager.disconnectServer(name);
    this.#session.syncMCPTools();
    const text = already
      ? `– ${name} is already disabled${wasRunning ? "; stopped it" : ""}.`
      : `– Disabled ${name} (saved in ${displayPath(file!, this.#where)})${wasRunning ? "; stopped it" : ""}. Other servers keep running.`;
    return ok(text, { name, file, stopped: wasRunning });
  }

  async #add(args: AddArgs, manager: MCPManager): Promise<MCPCommandResult> {
    const before = await this.#discover();
    const path = await this.#keepingTrust(args.scope, () =>
      this.#writer.addServer(args.name, args.config, args.scope),
    );
    const lines = [`Added ${args.name} to ${displayPath(path, this.#where)}.`];
    const after = await this.#discover();
    const winner = after.sources[args.name];
    if (winner?.path === path) {
      const replaced = before.sources[args.name];
      if (replaced && replaced.path !== path) {
        lines.push(
          `It takes the place of the entry in ${displayPath(replaced.path, this.#where)} (${replaced.providerName}).`,
        );
      }
      if (manager.getConnectionStatus(args.name) !== "disconnected" || replaced)
        await manager.disconnectServer(args.name);
      await this.#start([args.name], manager);
      const { line, state } = this.#stateLine(args.name, manager);
      lines.push(line);
      return ok(lines.join("\n"), { name: args.name, path, config: args.config, state });
    }
    const shadow = after.shadowed.find((entry) => entry.name === args.name && entry.source.path === path);
    const blocked = shadow
      ? `– not started: ${shadow.by.providerName} (${displayPath(shadow.by.path, this.#where)}) defines ${args.name} with higher priority`
      : this.#whyNotStarted(args.name, after);
    if (blocked) lines.push(blocked);
    return ok(lines.join("\n"), { name: args.name, path, config: args.config, state: undefined });
  }

  async #remove(args: RemoveArgs, manager: MCPManager): Promise<MCPCommandResult> {
    const { name } = args;
    const scopes: ConfigScope[] = [];
    for (const scope of args.scope ? [args.scope] : (["project", "user"] as const)) {
      const file = await this.#writer.read(scope);
      if (Object.hasOwn(file.mcpServers, name)) scopes.push(scope);
    }
    if (scopes.length === 0) {
      const discovery = await this.#discover();
      const known = this.#knownNames(discovery, manager);
      if (!known.includes(name)) return this.#unknownServer(name, known);
      if (args.scope) {
        return failure(
          "UNKNOWN_SERVER",
          `${name} is not in ${displayPath(this.#writer.pathOf(args.scope), this.#where)}.`,
        );
      }
      const source =
        discovery.sources[name] ??
        [
          ...discovery.needsApproval,
          ...discovery.disabled,
          ...discovery.filtered,
          ...discovery.shadowed,
        ].find((entry) => entry.name === name)?.source;
      const where = source ? ` in ${source.providerName}'s ${displayPath(source.path, this.#where)}` : "";
      return failure(
        "CONFIG_INVALID",
        `${name} is defined${where}, not in mcp-rt's own config; mcp-rt never edits other clients' files. Use /mcp disable ${name} to turn it off.`,
      );
    }
    if (scopes.length > 1) {
      return usageError(
        "remove",
        `${name} is in both the user and the project file; pass --scope user or --scope project`,
      );
    }
    const scope = scopes[0]!;
    const path = await this.#keepingTrust(scope, () => this.#writer.removeServer(name, scope));
    const wasRunning = manager.getConnectionStatus(name) !== "disconnected";
    await manager.disconnectServer(name);
    const lines = [
      `Removed ${name} from ${displayPath(path, this.#where)}${wasRunning ? "; stopped it" : ""}.`,
    ];
    const after = await this.#start([name], manager);
    const next = after.sources[name];
    if (next)
      lines.push(
        `Another entry of ${name} now counts: ${next.providerName} (${displayPath(next.path, this.#where)}).`,
        this.#stateLine(name, manager).line,
      );
    return ok(lines.join("\n"), { name, path, stopped: wasRunning });
  }

  async #test(name: string, manager: MCPManager): Promise<MCPCommandResult> {
    const discovery = await this.#discover();
    const config = discovery.configs[name];
    if (!config) {
      const known = this.#knownNames(discovery, manager);
      if (!known.includes(name)) return this.#unknownServer(name, known);
      const why = this.#whyNotStarted(name, discovery) ?? `${name} is not started by this session`;
      return failure("NOT_CONNECTED", `Cannot test ${name}: ${why.replace(/^\S+ /, "")}`);
    }
    const timeoutMs = this.#testTimeoutMs ?? config.timeout ?? 30_000;
    const started = performance.now();
    let connection: MCPServerConnection | undefined;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const resolved = await resolveServerConfig(name, config, {
        cwd: this.#session.cwd,
        ...(this.#session.authStorage ? { authStorage: this.#session.authStorage } : {}),
      });
      const sourcePath = discovery.sources[name]?.path;
      connection = await connectToServer(
        name,
        { ...resolved, timeout: timeoutMs },
        { signal, cwd: this.#session.cwd, unresolvedConfig: config, ...(sourcePath ? { sourcePath } : {}) },
      );
      const tools = await listTools(connection, { signal, timeout: timeoutMs });
      const ms = Math.round(performance.now() - started);
      const info = connection.serverInfo as { name?: string; version?: string } | undefined;
      const data = {
        name,
        serverName: info?.name,
        serverVersion: info?.version,
        protocolVersion: connection.protocolVersion,
        toolCount: tools.length,
        tools: tools.map((tool) => tool.name),
        ms,
      };
      const text = [
        `● ${name}: ${info?.name ?? "?"} ${info?.version ?? ""}`.trimEnd() +
          `, protocol ${connection.protocolVersion ?? "?"}, ${ms} ms`,
        `${tools.length} tool${tools.length === 1 ? "" : "s"}${tools.length > 0 ? `: ${data.tools.join(", ")}` : ""}`,
        "Connection closed.",
      ].join("\n");
      return ok(text, data);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const tail = (McpRtError.isInstance(error) ? error.stderrTail : undefined) ?? connection?.stderrTail();
      const code = McpRtError.isInstance(error) ? error.code : "ERROR";
      const result = failure(code, `${name} failed the test: ${message}`, tail ? { stderrTail: tail } : {});
      if (tail?.trim()) result.text += `\n  stderr:\n${indent(tail.trimEnd(), "    ")}`;
      return result;
    } finally {
      if (connection) await closeConnection(connection);
    }
  }

  async #explain(name: string, manager: MCPManager): Promise<MCPCommandResult> {
    const explained = await explainServer(name, {
      cwd: this.#session.cwd,
      homeDir: this.#where.homeDir,
      loadOptions: this.#session.loadOptions,
    });
    if (!explained.found) {
      const running = manager.getServerStates().map((state) => state.name);
      const known = [...new Set([...explained.known, ...running])].sort();
      if (!running.includes(name)) return this.#unknownServer(name, known);
      return ok(`${name} is not in any config file; it was connected by code.
Now: ${this.#stateLine(name, manager).line}`);
    }
    const state = manager.getServerStates().find((entry) => entry.name === name);
    const now = state
      ? `
Now: ${this.#stateLine(name, manager).line}`
      : "";
    return ok(`${explained.text.trimEnd()}${now}`, { ...explained.data, state });
  }

  async #trust(manager: MCPManager): Promise<MCPCommandResult> {
    const trust = this.#trustStore;
    if (!trust)
      return ok("Project trust is off in this session: every project-level server starts without approval.");
    const probe = await probeProjectTrust(this.#session.cwd, this.#session.loadOptions, trust);
    const waiting = probe.discovery.needsApproval;
    if (!probe.asked || waiting.length === 0) {
      return ok(`No project-level MCP servers wait for approval in ${this.#session.cwd}.`, { approved: [] });
    }
    await trust.approve(probe.asked.projectDir, probe.asked.hash);
    const names = waiting.map((entry) => entry.name);
    await this.#start(names, manager);
    const lines = [
      `Approved ${names.length} project-level server${names.length === 1 ? "" : "s"} of ${this.#session.cwd}; if their configs change you will be asked again.`,
      ...names.map((name) => this.#stateLine(name, manager).line),
    ];
    return ok(lines.join("\n"), { approved: names });
  }

  async #untrust(manager: MCPManager): Promise<MCPCommandResult> {
    const trust = this.#trustStore;
    if (!trust) return ok("Project trust is off in this session: there is no approval to withdraw.");
    const probe = await probeProjectTrust(this.#session.cwd, this.#session.loadOptions, trust);
    await trust.revoke(probe.asked?.projectDir ?? this.#session.cwd);
    const stopped = manager
      .getServerStates()
      .filter((state) => state.source?.level === "project")
      .map((state) => state.name);
    await Promise.all(stopped.map((name) => manager.disconnectServer(name)));
    this.#session.syncMCPTools();
    const text = `Withdrew the approval of ${this.#session.cwd}'s project-level servers${stopped.length > 0 ? `; stopped ${stopped.join(", ")}` : ""}. They wait for /mcp trust again.`;
    return ok(text, { stopped });
  }
}

function indent(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((line) => `${prefix}${line}`)
    .join("\n");
}
