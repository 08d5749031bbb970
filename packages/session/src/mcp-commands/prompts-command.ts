import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseNoArgs } from "../mcp-command-args.js";
import { type MCPCommandResult, ok } from "../mcp-command-result.js";
import { formatPrompts } from "../server-content-text.js";

/** `/mcp prompts`: every server's prompts with their arguments. */
export const promptsCommand: MCPCommand<undefined> = {
  name: "prompts",
  usage: "/mcp prompts",
  description: "the servers' prompts and their arguments",
  parse: parseNoArgs,
  run: prompts,
};

function prompts({ ctx }: MCPCommandCall<undefined>): MCPCommandResult {
  const prompts = ctx.manager.getPrompts();
  return ok(formatPrompts(prompts), { prompts });
}
