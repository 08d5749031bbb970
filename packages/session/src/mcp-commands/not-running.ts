import type { MCPCommandContext } from "../mcp-command-context.js";
import { failure, type MCPCommandResult } from "../mcp-command-result.js";

/**
 * The answer for a server this session's manager does not run (unknown, or
 * not started, and why); `undefined` when the manager knows it.
 */
export async function notRunning(
  ctx: MCPCommandContext,
  name: string,
): Promise<MCPCommandResult | undefined> {
  if (ctx.manager.getServerStates().some((state) => state.name === name)) return undefined;
  const discovery = await ctx.discover();
  const known = ctx.knownNames(discovery);
  if (!known.includes(name)) return ctx.text.unknownServer(name, known);
  const why = ctx.text.whyNotStarted(name, discovery) ?? `${name} is not started by this session`;
  return failure({ code: "NOT_CONNECTED", message: `${name} is not running: ${why.replace(/^\S+ /, "")}` });
}
