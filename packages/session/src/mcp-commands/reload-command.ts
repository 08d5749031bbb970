import { monotonicMs, plural } from "@mcp-rt/config/util";
import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseReloadArgs } from "../mcp-command-args.js";
import { type MCPCommandResult, ok } from "../mcp-command-result.js";

/**
 * `/mcp reload [--all]` with the session's own options: the config files are
 * read again and only the servers that changed restart (failed ones are
 * tried again); `--all` restarts every server.
 */
export const reloadCommand: MCPCommand<{ all: boolean }> = {
  name: "reload",
  usage: "/mcp reload [--all]",
  description: "read the config files again; restart only the servers that changed (--all: every server)",
  parse: parseReloadArgs,
  run: reload,
};

async function reload({ ctx, input: options }: MCPCommandCall<{ all: boolean }>): Promise<MCPCommandResult> {
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
      lines.push(
        `✗ ${ctx.text.show(issue.path)}: ${issue.server ? `${issue.server}: ` : ""}${issue.message}`,
      );
    }
  }
  const waiting = result.discovery?.needsApproval.map((entry) => entry.name) ?? [];
  if (waiting.length > 0) lines.push(`? waiting for project approval: ${waiting.join(", ")} (/mcp trust)`);
  const blocked = result.discovery?.blocked?.map((entry) => entry.name) ?? [];
  if (blocked.length > 0) {
    lines.push(`⛔ forbidden by a policy: ${blocked.join(", ")} (/mcp explain <name> names the rule)`);
  }
  return ok(lines.join("\n"), {
    added,
    removed,
    restarted,
    unchanged,
    connectedServers: result.connectedServers,
    pending,
    errors: Object.fromEntries([...result.errors].map(([name, error]) => [name, error.message])),
    needsApproval: waiting,
    blocked,
    toolCount: ctx.manager.getTools().length,
    ms,
  });
}
