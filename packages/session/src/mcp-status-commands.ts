import { errorMessage, monotonicMs, plural } from "@mcp-rt/config/util";
import { McpRtError, type SignInStatus } from "@mcp-rt/manager";
import { explainServer } from "./explain-server.js";
import type { MCPCommandContext } from "./mcp-command-context.js";
import { failure, indent, type MCPCommandResult, ok } from "./mcp-command-result.js";
import { addModelCost, buildServerList, describeProtocol, formatServerList } from "./mcp-server-list.js";

/** `/mcp list`: every entry of every config file, joined with what the manager runs. */
export async function listCommand(ctx: MCPCommandContext): Promise<MCPCommandResult> {
  const discovery = await ctx.discover();
  const states = ctx.manager.getServerStates();
  const signIns = new Map<string, SignInStatus>();
  await Promise.all(
    states.map(async ({ name }) => {
      const status = await ctx.manager.signInStatus(name).catch(() => undefined);
      if (status) signIns.set(name, status);
    }),
  );
  const { toolSearch } = ctx.session;
  const list = addModelCost(buildServerList(discovery, states, ctx.where, signIns), {
    tokens: ctx.session.toolTokens(),
    alwaysLoaded: toolSearch.alwaysLoadedServers(),
    toolSearch: toolSearch.active,
    summary: toolSearch.describe(),
  });
  return ok(formatServerList(list, ctx.where), list);
}

/**
 * `/mcp reload [--all]` with the session's own options: the config files are
 * read again and only the servers that changed restart (failed ones are
 * tried again); `--all` restarts every server.
 */
export async function reloadCommand(
  ctx: MCPCommandContext,
  options: { all: boolean },
): Promise<MCPCommandResult> {
  const started = monotonicMs();
  const result = await ctx.session.reload(options);
  const ms = Math.round(monotonicMs() - started);
  const states = ctx.manager.getServerStates();
  const pending = states.filter((state) => state.status === "connecting").map((state) => state.name);
  const { added, removed, restarted, unchanged } = result;
  const moved = [
    [restarted, "restarted"],
    [added, "started"],
    [removed, "removed"],
  ] as const;
  const changes = moved
    .filter(([names]) => names.length > 0)
    .map(([names, what]) => `${what} ${names.join(", ")}`);
  const lines = [
    `Reloaded MCP in ${ms} ms: ${changes.length > 0 ? changes.join("; ") : "nothing changed"}${unchanged.length > 0 ? `; ${unchanged.length} unchanged` : ""}. ${plural(result.connectedServers.length, "server")} connected, ${plural(ctx.manager.getTools().length, "tool")}.`,
  ];
  if (pending.length > 0) lines.push(`◌ still connecting: ${pending.join(", ")} (their tools follow)`);
  for (const [name, error] of result.errors) lines.push(`✗ ${name}: ${error.message}`);
  for (const issue of result.discovery?.errors ?? []) {
    if (!issue.server || !result.errors.has(issue.server)) {
      lines.push(`✗ ${ctx.show(issue.path)}: ${issue.server ? `${issue.server}: ` : ""}${issue.message}`);
    }
  }
  const waiting = result.discovery?.needsApproval.map((entry) => entry.name) ?? [];
  if (waiting.length > 0) lines.push(`? waiting for project approval: ${waiting.join(", ")} (/mcp trust)`);
  return ok(lines.join("\n"), {
    added,
    removed,
    restarted,
    unchanged,
    connectedServers: result.connectedServers,
    pending,
    errors: Object.fromEntries([...result.errors].map(([name, error]) => [name, error.message])),
    needsApproval: waiting,
    toolCount: ctx.manager.getTools().length,
    ms,
  });
}

/** `/mcp test <name>`: a separate, temporary connection; the session's own connection is not touched. */
export async function testCommand(ctx: MCPCommandContext, name: string): Promise<MCPCommandResult> {
  const discovery = await ctx.discover();
  const config = discovery.configs[name];
  if (!config) {
    const known = ctx.knownNames(discovery);
    if (!known.includes(name)) return ctx.unknownServer(name, known);
    const why = ctx.whyNotStarted(name, discovery) ?? `${name} is not started by this session`;
    return failure("NOT_CONNECTED", `Cannot test ${name}: ${why.replace(/^\S+ /, "")}`);
  }
  const sourcePath = discovery.sources[name]?.path;
  try {
    const probe = await ctx.manager.testServer(name, config, {
      ...(ctx.testTimeoutMs === undefined ? {} : { timeoutMs: ctx.testTimeoutMs }),
      ...(sourcePath ? { sourcePath } : {}),
    });
    const info = probe.serverInfo as { name?: string; version?: string } | undefined;
    const data = {
      name,
      serverName: info?.name,
      serverVersion: info?.version,
      protocolVersion: probe.protocolVersion,
      protocol: probe.protocol,
      toolCount: probe.tools.length,
      tools: probe.tools.map((tool) => tool.name),
      ms: probe.ms,
    };
    const text = [
      `● ${name}: ${info?.name ?? "?"} ${info?.version ?? ""}`.trimEnd() +
        `, protocol ${describeProtocol(probe.protocol)}, ${probe.ms} ms`,
      `era: ${probe.protocol.decision.text}`,
      `${plural(probe.tools.length, "tool")}${probe.tools.length > 0 ? `: ${data.tools.join(", ")}` : ""}`,
      "Connection closed.",
    ].join("\n");
    return ok(text, data);
  } catch (error) {
    const message = errorMessage(error);
    const tail = McpRtError.isInstance(error) ? error.stderrTail : undefined;
    const code = McpRtError.isInstance(error) ? error.code : "ERROR";
    const result = failure(code, `${name} failed the test: ${message}`, tail ? { stderrTail: tail } : {});
    if (tail?.trim()) result.text += `\n  stderr:\n${indent(tail.trimEnd(), "    ")}`;
    return result;
  }
}

/** `/mcp explain <name>`: `@mcp-rt/config`'s explanation, plus the server's state now. */
export async function explainCommand(ctx: MCPCommandContext, name: string): Promise<MCPCommandResult> {
  const explained = await explainServer(name, {
    cwd: ctx.session.cwd,
    homeDir: ctx.where.homeDir,
    loadOptions: ctx.session.loadOptions,
  });
  if (!explained.found) {
    const running = ctx.manager.getServerStates().map((state) => state.name);
    const known = [...new Set([...explained.known, ...running])].sort();
    if (!running.includes(name)) return ctx.unknownServer(name, known);
    return ok(`${name} is not in any config file; it was connected by code.
Now: ${ctx.stateLine(name).line}`);
  }
  const state = ctx.manager.getServerStates().find((entry) => entry.name === name);
  const era = state?.protocol
    ? `
Protocol: ${describeProtocol(state.protocol)}: ${state.protocol.decision.text}`
    : "";
  const now = state
    ? `
Now: ${ctx.stateLine(name).line}${era}`
    : "";
  return ok(`${explained.text.trimEnd()}${now}`, { ...explained.data, state });
}
