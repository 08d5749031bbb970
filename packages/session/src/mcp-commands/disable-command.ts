import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseNameArgs } from "../mcp-command-args.js";
import { type MCPCommandResult, ok } from "../mcp-command-result.js";
import type { ConfigScope } from "../native-config-writer.js";

/** `/mcp disable <name>`: saved in the native file of the server's level, then stops that server only. */
export const disableCommand: MCPCommand<string> = {
  name: "disable",
  usage: "/mcp disable <name>",
  description: "turn a server off; other servers keep running",
  parse: parseNameArgs,
  run: disable,
};

async function disable({ ctx, input: name }: MCPCommandCall<string>): Promise<MCPCommandResult> {
  const discovery = await ctx.discover();
  const known = ctx.knownNames(discovery);
  if (!known.includes(name)) return ctx.text.unknownServer(name, known);
  const scope: ConfigScope = ctx.sourceOf(name, discovery)?.level ?? "user";
  const already = discovery.disabled.some((entry) => entry.name === name);
  const file = already
    ? undefined
    : await ctx.trust.keeping({ scope, edit: () => ctx.writer.disableServer(name, scope) });
  const wasRunning = ctx.manager.getConnectionStatus(name) !== "disconnected";
  await ctx.manager.disconnectServer(name);
  ctx.session.syncMCPTools();
  const text = already
    ? `– ${name} is already disabled${wasRunning ? "; stopped it" : ""}.`
    : `– Disabled ${name} (saved in ${ctx.text.show(file!)})${wasRunning ? "; stopped it" : ""}. Other servers keep running.`;
  return ok(text, { name, file, stopped: wasRunning });
}
