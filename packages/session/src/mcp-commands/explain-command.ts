import { describeEra } from "@mcp-rt/manager";
import { explainServer } from "../explain-server.js";
import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseNameArgs } from "../mcp-command-args.js";
import { type MCPCommandResult, ok } from "../mcp-command-result.js";

/** `/mcp explain <name>`: `@mcp-rt/config`'s explanation, plus the server's state now. */
export const explainCommand: MCPCommand<string> = {
  name: "explain",
  usage: "/mcp explain <name>",
  description: "where a server is defined and why it does or does not start",
  parse: parseNameArgs,
  run: explain,
};

async function explain({ ctx, input: name }: MCPCommandCall<string>): Promise<MCPCommandResult> {
  const explained = await explainServer(name, {
    cwd: ctx.session.cwd,
    homeDir: ctx.text.where.homeDir,
    loadOptions: ctx.session.loadOptions,
    reserveReasons: ctx.text.reserveReasons(),
  });
  if (!explained.found) {
    const running = ctx.manager.getServerStates().map((state) => state.name);
    const known = [...new Set([...explained.known, ...running])].sort();
    if (!running.includes(name)) return ctx.text.unknownServer(name, known);
    return ok(`${name} is not in any config file; it was connected by code.
Now: ${ctx.text.stateLine(name).line}`);
  }
  const state = ctx.manager.getServerStates().find((entry) => entry.name === name);
  const era = state?.protocol
    ? `
Protocol: ${describeEra(state.protocol)}: ${state.protocol.decision.text}`
    : "";
  const now = state
    ? `
Now: ${ctx.text.stateLine(name).line}${era}`
    : "";
  return ok(`${explained.text.trimEnd()}${now}`, { ...explained.data, state });
}
