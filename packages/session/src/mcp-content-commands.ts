import { errorMessage } from "@mcp-rt/config/util";
import type { MCPPromptResult } from "@mcp-rt/manager";
import type { MCPCommandContext } from "./mcp-command-context.js";
import { failure, type MCPCommandResult, ok } from "./mcp-command-result.js";
import { filterResources, formatPrompts, formatResources } from "./server-content-text.js";

/** `/mcp resources [server]`: every server's resources and templates (or one server's). */
export function resourcesCommand(ctx: MCPCommandContext, server: string | undefined): MCPCommandResult {
  if (server !== undefined && !ctx.manager.getServerStates().some((state) => state.name === server)) {
    return failure("UNKNOWN_SERVER", `No MCP server "${server}" in this session; see /mcp list.`);
  }
  const found = filterResources(ctx.manager.getResources(), ctx.manager.getResourceTemplates(), { server });
  return ok(formatResources(found.resources, found.templates, { server }), found);
}

/** `/mcp read <server> <uri>`: one resource, as the model would get it. */
export async function readCommand(
  ctx: MCPCommandContext,
  server: string,
  uri: string,
  signal: AbortSignal | undefined,
): Promise<MCPCommandResult> {
  const result = await ctx.manager.readResourceResult(server, uri, signal ? { signal } : {});
  const text = result.content
    .map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`))
    .join("\n");
  if (result.isError) return failure("READ_FAILED", text.replace(/^MCP error: /, ""));
  return ok(text, { server, uri, content: result.content });
}

/** `/mcp prompts`: every server's prompts with their arguments. */
export function promptsCommand(ctx: MCPCommandContext): MCPCommandResult {
  const prompts = ctx.manager.getPrompts();
  return ok(formatPrompts(prompts), { prompts });
}

/** The text of a prompt's messages, one block per message, for a terminal. */
export function formatPromptMessages(result: MCPPromptResult): string {
  return result.messages
    .map((message) => {
      const content = message.content as {
        type: string;
        text?: string;
        resource?: { uri?: string; text?: string };
      };
      const body =
        content.type === "text"
          ? (content.text ?? "")
          : content.type === "resource"
            ? `[resource ${content.resource?.uri ?? ""}]${content.resource?.text === undefined ? "" : `\n${content.resource.text}`}`
            : `[${content.type}]`;
      return `[${message.role}] ${body}`;
    })
    .join("\n");
}

/**
 * `/prompt <server> <name> [json arguments]`: gets the prompt; `data.messages`
 * are what the agent puts into the conversation. The arguments are a JSON
 * object; values that are not strings are sent as JSON text.
 */
export async function promptCommand(
  ctx: MCPCommandContext,
  server: string,
  name: string,
  rawArgs: string,
  signal: AbortSignal | undefined,
): Promise<MCPCommandResult> {
  let args: Record<string, string> = {};
  if (rawArgs.trim() !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawArgs);
    } catch (error) {
      return failure(
        "USAGE",
        `The arguments must be a JSON object, e.g. {"city": "Lisbon"}: ${errorMessage(error)}`,
      );
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return failure("USAGE", 'The arguments must be a JSON object, e.g. {"city": "Lisbon"}');
    }
    args = Object.fromEntries(
      Object.entries(parsed).map(([key, value]) => [
        key,
        typeof value === "string" ? value : JSON.stringify(value),
      ]),
    );
  }
  const result = await ctx.manager.getPrompt(server, name, args, signal ? { signal } : {});
  const head = `Prompt ${server}/${name}${result.description ? `: ${result.description}` : ""}`;
  return ok(`${head}\n${formatPromptMessages(result)}`, { server, name, messages: result.messages });
}
