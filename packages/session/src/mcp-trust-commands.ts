import { approvalSummary, discoverEntries } from "@mcp-rt/config/explain";
import { plural } from "@mcp-rt/config/util";
import type { MCPCommandContext } from "./mcp-command-context.js";
import { type MCPCommandResult, ok } from "./mcp-command-result.js";

/**
 * `/mcp trust`: approves exactly what discovery asks about (and shows it:
 * what each server runs, the env file it reads, what changes in the user's
 * own servers), then applies it with a reload: the project's servers start,
 * and its changes to the user's servers take effect.
 */
export async function trustCommand(ctx: MCPCommandContext): Promise<MCPCommandResult> {
  const trust = ctx.trust;
  if (!trust)
    return ok("Project trust is off in this session: every project-level server starts without approval.");
  const discovery = await ctx.discover();
  const asked = discovery.projectTrust;
  const waiting = discovery.needsApproval;
  const changes = discovery.pendingChanges ?? [];
  if (!asked || asked.approved || (waiting.length === 0 && changes.length === 0)) {
    return ok(`No project-level MCP servers wait for approval in ${ctx.session.cwd}.`, { approved: [] });
  }
  const written = await discoverEntries(ctx.session.cwd, ctx.session.loadOptions).catch(() => []);
  await trust.approve(asked.projectDir, asked.hash);
  const names = waiting.map((entry) => entry.name);
  await ctx.session.reload();
  const bound = AbortSignal.timeout(ctx.connectWaitMs);
  // Failures show in the state lines; this only waits.
  await Promise.allSettled(names.map((name) => ctx.manager.waitForConnection(name, { signal: bound })));
  ctx.session.syncMCPTools();
  const lines = [
    `Approved ${plural(names.length, "project-level server")} of ${ctx.session.cwd}; if the project's config changes you will be asked again:`,
    ...approvalSummary(discovery, ctx.where, written).map((line) => `  ${line}`),
    ...names.map((name) => ctx.stateLine(name).line),
  ];
  return ok(lines.join("\n"), { approved: names, changes });
}

/**
 * `/mcp untrust`: withdraws the approval, stops the project-level servers and
 * reloads, so the user's servers the project turned off or replaced run
 * again as the user configured them.
 */
export async function untrustCommand(ctx: MCPCommandContext): Promise<MCPCommandResult> {
  const trust = ctx.trust;
  if (!trust) return ok("Project trust is off in this session: there is no approval to withdraw.");
  const asked = (await ctx.discover()).projectTrust;
  await trust.revoke(asked?.projectDir ?? ctx.session.cwd);
  const stopped = ctx.manager
    .getServerStates()
    .filter((state) => state.source?.level === "project")
    .map((state) => state.name);
  await Promise.all(stopped.map((name) => ctx.manager.disconnectServer(name)));
  // What the project changed in the user's own servers is undone too.
  await ctx.session.reload();
  const text = `Withdrew the approval of ${ctx.session.cwd}'s project-level servers${stopped.length > 0 ? `; stopped ${stopped.join(", ")}` : ""}. They wait for /mcp trust again.`;
  return ok(text, { stopped });
}
