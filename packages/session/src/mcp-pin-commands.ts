import { plural } from "@mcp-rt/config/util";
import type { MCPCommandContext } from "./mcp-command-context.js";
import { type MCPCommandResult, ok } from "./mcp-command-result.js";
import { formatTokens } from "./tool-tokens.js";

/**
 * `/mcp pin <name>` and `/mcp unpin <name>`: whether the model always gets a
 * server's tools, tool search or not. Saved in mcp-rt's own files (never
 * another client's) and applied to this session at once, without a restart.
 */
export async function pinCommand(
  ctx: MCPCommandContext,
  name: string,
  pinned: boolean,
): Promise<MCPCommandResult> {
  const discovery = await ctx.discover();
  const known = ctx.knownNames(discovery);
  if (!known.includes(name)) return ctx.unknownServer(name, known);
  const files = await ctx.keepingTrust("project", () => ctx.writer.setAlwaysLoad(name, pinned));
  const { toolSearch } = ctx.session;
  toolSearch.pin(name, pinned);
  const { servers } = ctx.session.toolTokens();
  const cost = Object.hasOwn(servers, name) ? servers[name] : undefined;
  const what = cost ? `its ${plural(cost.tools, "tool")} (${formatTokens(cost.tokens)} tokens)` : "its tools";
  const saved =
    files.length > 0
      ? `saved in ${files.map((file) => ctx.show(file)).join(", ")}`
      : "mcp-rt's config already said so";
  const text = pinned
    ? `📌 Pinned ${name}: ${what} always go to the model, tool search or not (${saved}).`
    : `Unpinned ${name}: ${what} reach the model through mcp_tool_search while ${toolSearch.describe().replace(/^tool search /, "tool search is ")} (${saved}).`;
  return ok(text, { name, pinned, files, toolSearch: toolSearch.active });
}
