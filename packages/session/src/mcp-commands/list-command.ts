import type { SignInStatus } from "@mcp-rt/manager";
import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseOptionalNameArgs } from "../mcp-command-args.js";
import { type MCPCommandResult, ok } from "../mcp-command-result.js";
import { addModelCost, buildServerList, formatServerList } from "../mcp-server-list.js";

/**
 * `/mcp list [name]`: every entry of every config file, joined with what the
 * manager runs; with a name, that server alone and its stderr tail.
 */
export const listCommand: MCPCommand<string | undefined> = {
  name: "list",
  usage: "/mcp list [name]",
  description:
    "every configured server: status, tools, connect time, last error (a name: that one, with its stderr)",
  parse: parseOptionalNameArgs,
  run: list,
};

async function list({ ctx, input: name }: MCPCommandCall<string | undefined>): Promise<MCPCommandResult> {
  const discovery = await ctx.discover();
  if (name !== undefined) {
    const known = ctx.knownNames(discovery);
    if (!known.includes(name)) return ctx.text.unknownServer(name, known);
  }
  const states = ctx.manager.getServerStates().filter((state) => name === undefined || state.name === name);
  const signIns = new Map<string, SignInStatus>();
  await Promise.all(
    states.map(async ({ name }) => {
      const status = await ctx.manager.signInStatus(name).catch(() => undefined);
      if (status) signIns.set(name, status);
    }),
  );
  const { toolSearch } = ctx.session;
  const all = addModelCost(
    buildServerList({
      discovery,
      states,
      where: ctx.text.where,
      signIns,
      heldBack: (reason) => ctx.text.heldBackNote(reason),
    }),
    {
      tokens: ctx.session.toolTokens(),
      alwaysLoaded: toolSearch.alwaysLoadedServers(),
      toolSearch: toolSearch.active,
      summary: toolSearch.describe(),
    },
  );
  if (name === undefined) return ok(formatServerList(all, ctx.text.where), all);
  const one = {
    groups: all.groups
      .map((group) => ({ ...group, entries: group.entries.filter((entry) => entry.name === name) }))
      .filter((group) => group.entries.length > 0),
    fileErrors: [],
  };
  return ok(formatServerList(one, ctx.text.where, { stderr: true }), one);
}
