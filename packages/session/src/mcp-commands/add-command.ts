import { redactServerConfig } from "@mcp-rt/config";
import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { type AddArgs, parseAddArgs } from "../mcp-command-args.js";
import { type MCPCommandResult, ok } from "../mcp-command-result.js";

/**
 * `/mcp add`: a new entry in a native file, started when it is the one that
 * counts. The result's `config` is redacted: header and env values are `***`.
 */
export const addCommand: MCPCommand<AddArgs> = {
  name: "add",
  usage:
    "/mcp add <name> [--scope user|project] (--url <url> [--transport http|sse] [--header K=V]… | -- <command> [args…]) [--env K=V]…",
  description: "add a server to mcp-rt's own config and start it",
  parse: parseAddArgs,
  run: add,
};

async function add({ ctx, input: args }: MCPCommandCall<AddArgs>): Promise<MCPCommandResult> {
  const before = await ctx.discover();
  const path = await ctx.trust.keeping({
    scope: args.scope,
    edit: () => ctx.writer.addServer(args),
    written: [args.name],
  });
  const lines = [`Added ${args.name} to ${ctx.text.show(path)}.`];
  const after = await ctx.discover();
  const winner = after.sources[args.name];
  if (winner?.path === path) {
    const replaced = before.sources[args.name];
    if (replaced && replaced.path !== path) {
      lines.push(
        `It takes the place of the entry in ${ctx.text.show(replaced.path)} (${replaced.providerName}).`,
      );
    }
    if (ctx.manager.getConnectionStatus(args.name) !== "disconnected" || replaced)
      await ctx.manager.disconnectServer(args.name);
    await ctx.start([args.name]);
    const { line, state } = ctx.text.stateLine(args.name);
    lines.push(line);
    return ok(lines.join("\n"), { name: args.name, path, config: redactServerConfig(args.config), state });
  }
  const shadow = after.shadowed.find((entry) => entry.name === args.name && entry.source.path === path);
  const blocked = shadow
    ? `– not started: ${shadow.by.providerName} (${ctx.text.show(shadow.by.path)}) defines ${args.name} with higher priority`
    : ctx.text.whyNotStarted(args.name, after);
  if (blocked) lines.push(blocked);
  return ok(lines.join("\n"), {
    name: args.name,
    path,
    config: redactServerConfig(args.config),
    state: undefined,
  });
}
