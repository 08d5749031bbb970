import { plural } from "@mcp-rt/config/util";
import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseNameArgs } from "../mcp-command-args.js";
import { type MCPCommandResult, ok } from "../mcp-command-result.js";
import { formatTokens } from "../tool-tokens.js";

/**
 * `/mcp pin <name>`: the model always gets the server's tools, tool search or
 * not. Saved in mcp-rt's own files (never another client's) and applied to
 * this session at once, without a restart.
 */
export const pinCommand: MCPCommand<string> = {
  name: "pin",
  usage: "/mcp pin <name>",
  description: "always give the model this server's tools, even with tool search on (saved)",
  parse: parseNameArgs,
  run: (call) => setPin(call, true),
};

/** `/mcp unpin <name>`: the server's tools reach the model through tool search again (saved). */
export const unpinCommand: MCPCommand<string> = {
  name: "unpin",
  usage: "/mcp unpin <name>",
  description: "let its tools go through tool search again (saved)",
  parse: parseNameArgs,
  run: (call) => setPin(call, false),
};

async function setPin(
  { ctx, input: name }: MCPCommandCall<string>,
  pinned: boolean,
): Promise<MCPCommandResult> {
  const discovery = await ctx.discover();
  const known = ctx.knownNames(discovery);
  if (!known.includes(name)) return ctx.text.unknownServer(name, known);
  const files = await ctx.trust.keeping({
    scope: "project",
    edit: () => ctx.writer.setAlwaysLoad(name, pinned),
  });
  const { toolSearch } = ctx.session;
  toolSearch.pin(name, pinned);
  const { servers } = ctx.session.toolTokens();
  const cost = Object.hasOwn(servers, name) ? servers[name] : undefined;
  const what = cost ? `its ${plural(cost.tools, "tool")} (${formatTokens(cost.tokens)} tokens)` : "its tools";
  const saved =
    files.length > 0
      ? `saved in ${files.map((file) => ctx.text.show(file)).join(", ")}`
      : "mcp-rt's config already said so";
  const text = pinned
    ? `📌 Pinned ${name}: ${what} always go to the model, tool search or not (${saved}).`
    : `Unpinned ${name}: ${what} reach the model through mcp_tool_search while ${toolSearch.describe().replace(/^tool search /, "tool search is ")} (${saved}).`;
  return ok(text, { name, pinned, files, toolSearch: toolSearch.active });
}
