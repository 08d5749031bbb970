import { approvalSummary, discoverEntries } from "@mcp-rt/config/explain";
import { plural } from "@mcp-rt/config/util";
import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseNoArgs } from "../mcp-command-args.js";
import { type MCPCommandResult, ok } from "../mcp-command-result.js";

/**
 * `/mcp trust`: approves exactly what discovery asks about (and shows it:
 * what each server runs, the env file it reads, what changes in the user's
 * own servers), then applies it with a reload: the project's servers start,
 * and its changes to the user's servers take effect.
 */
export const trustCommand: MCPCommand<undefined> = {
  name: "trust",
  usage: "/mcp trust",
  description: "approve this project's project-level servers and start them",
  parse: parseNoArgs,
  run: approveProject,
};

/**
 * `/mcp untrust`: withdraws the approval, stops the project-level servers and
 * reloads, so the user's servers the project turned off or replaced run
 * again as the user configured them.
 */
export const untrustCommand: MCPCommand<undefined> = {
  name: "untrust",
  usage: "/mcp untrust",
  description: "withdraw that approval and stop them",
  parse: parseNoArgs,
  run: withdrawApproval,
};

async function approveProject({ ctx }: MCPCommandCall<undefined>): Promise<MCPCommandResult> {
  const trust = ctx.trust.store;
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
    ...approvalSummary(discovery, ctx.text.where, written).map((line) => `  ${line}`),
    ...names.map((name) => ctx.text.stateLine(name).line),
  ];
  return ok(lines.join("\n"), { approved: names, changes });
}

async function withdrawApproval({ ctx }: MCPCommandCall<undefined>): Promise<MCPCommandResult> {
  const trust = ctx.trust.store;
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
