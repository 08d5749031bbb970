import type { SignInStatus } from "@mcp-rt/manager";
import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseNoArgs } from "../mcp-command-args.js";
import { type MCPCommandResult, ok } from "../mcp-command-result.js";
import { addModelCost, buildServerList, formatServerList } from "../mcp-server-list.js";

/** `/mcp list`: every entry of every config file, joined with what the manager runs. */
export const listCommand: MCPCommand<undefined> = {
  name: "list",
  usage: "/mcp list",
  description: "every configured server: status, tools, connect time, last error",
  parse: parseNoArgs,
  run: list,
};

async function list({ ctx }: MCPCommandCall<undefined>): Promise<MCPCommandResult> {
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
  const list = addModelCost(
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
  return ok(formatServerList(list, ctx.text.where), list);
}
