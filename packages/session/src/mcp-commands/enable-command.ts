import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseNameArgs } from "../mcp-command-args.js";
import { type MCPCommandResult, ok } from "../mcp-command-result.js";

/** `/mcp enable <name>`: clears what turns it off in the native files, then starts that server only. */
export const enableCommand: MCPCommand<string> = {
  name: "enable",
  usage: "/mcp enable <name>",
  description: "turn a server on (saved in ~/.mcp-rt/mcp.json or .mcp-rt/mcp.json)",
  parse: parseNameArgs,
  run: enable,
};

async function enable({ ctx, input: name }: MCPCommandCall<string>): Promise<MCPCommandResult> {
  const before = await ctx.discover();
  const known = ctx.knownNames(before);
  if (!known.includes(name)) return ctx.text.unknownServer(name, known);
  const files = await ctx.trust.keeping({ scope: "project", edit: () => ctx.writer.enableServer(name) });
  const running = ctx.manager.getConnectionStatus(name) !== "disconnected";
  const after = running ? await ctx.discover() : await ctx.start([name]);
  const waits = after.needsApproval.find((entry) => entry.name === name);
  const blocked = waits
    ? `? ${name} is defined by the project (${ctx.text.show(waits.source.path)}); enabling it changes what the project runs, so it waits for your approval: review it with /mcp explain ${name}, then run /mcp trust`
    : ctx.text.whyNotStarted(name, after);
  const saved =
    files.length > 0
      ? `Enabled ${name} (saved in ${files.map((file) => ctx.text.show(file)).join(", ")}).`
      : `${name} was not disabled in mcp-rt's config.`;
  if (blocked) return { ok: false, text: `${saved}\n${blocked}`, data: { name, files, started: false } };
  const { line, state } = ctx.text.stateLine(name);
  return ok(`${saved}\n${line}`, { name, files, started: true, state });
}
