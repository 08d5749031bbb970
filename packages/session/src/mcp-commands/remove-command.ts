import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseRemoveArgs, type RemoveArgs } from "../mcp-command-args.js";
import { failure, type MCPCommandResult, ok, usageError } from "../mcp-command-result.js";
import type { ConfigScope } from "../native-config-writer.js";

/** `/mcp remove`: only entries of the native files; other clients' files are never edited. */
export const removeCommand: MCPCommand<RemoveArgs> = {
  name: "remove",
  usage: "/mcp remove <name> [--scope user|project]",
  description: "remove a server from mcp-rt's own config and stop it",
  parse: parseRemoveArgs,
  run: remove,
};

async function remove({ ctx, input: args }: MCPCommandCall<RemoveArgs>): Promise<MCPCommandResult> {
  const { name } = args;
  const scopes: ConfigScope[] = [];
  for (const scope of args.scope ? [args.scope] : (["project", "user"] as const)) {
    const file = await ctx.writer.read(scope);
    if (Object.hasOwn(file.mcpServers, name)) scopes.push(scope);
  }
  if (scopes.length === 0) {
    const discovery = await ctx.discover();
    const known = ctx.knownNames(discovery);
    if (!known.includes(name)) return ctx.text.unknownServer(name, known);
    if (args.scope) {
      return failure({
        code: "UNKNOWN_SERVER",
        message: `${name} is not in ${ctx.text.show(ctx.writer.pathOf(args.scope))}.`,
      });
    }
    const source = ctx.sourceOf(name, discovery);
    const where = source ? ` in ${source.providerName}'s ${ctx.text.show(source.path)}` : "";
    return failure({
      code: "CONFIG_INVALID",
      message: `${name} is defined${where}, not in mcp-rt's own config; mcp-rt never edits other clients' files. Use /mcp disable ${name} to turn it off.`,
    });
  }
  if (scopes.length > 1) {
    return usageError(
      removeCommand.usage,
      `${name} is in both the user and the project file; pass --scope user or --scope project`,
    );
  }
  const scope = scopes[0]!;
  const path = await ctx.trust.keeping({ scope, edit: () => ctx.writer.removeServer(name, scope) });
  const wasRunning = ctx.manager.getConnectionStatus(name) !== "disconnected";
  await ctx.manager.disconnectServer(name);
  const lines = [`Removed ${name} from ${ctx.text.show(path)}${wasRunning ? "; stopped it" : ""}.`];
  const after = await ctx.start([name]);
  const next = after.sources[name];
  if (next)
    lines.push(
      `Another entry of ${name} now counts: ${next.providerName} (${ctx.text.show(next.path)}).`,
      ctx.text.stateLine(name).line,
    );
  return ok(lines.join("\n"), { name, path, stopped: wasRunning });
}
