import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseReadArgs, type ReadArgs } from "../mcp-command-args.js";
import { failure, type MCPCommandResult, ok } from "../mcp-command-result.js";

/** `/mcp read <server> <uri>`: one resource, as the model would get it. */
export const readCommand: MCPCommand<ReadArgs> = {
  name: "read",
  usage: "/mcp read <server> <uri>",
  description: "read one resource, as the model would get it",
  parse: parseReadArgs,
  run: read,
};

async function read({
  ctx,
  input: { server, uri },
  signal,
}: MCPCommandCall<ReadArgs>): Promise<MCPCommandResult> {
  const result = await ctx.manager.readResourceResult({ server, uri, signal });
  const text = result.content
    .map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`))
    .join("\n");
  if (result.isError) return failure({ code: "READ_FAILED", message: text.replace(/^MCP error: /, "") });
  return ok(text, { server, uri, content: result.content });
}
