import { errorMessage } from "@mcp-rt/config/util";
import type { MCPPromptResult } from "@mcp-rt/manager";
import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { type PromptArgs, parsePromptArgs } from "../mcp-command-args.js";
import { failure, type MCPCommandResult, ok } from "../mcp-command-result.js";

/**
 * `/prompt <server> <name> [json arguments]`: gets the prompt; `data.messages`
 * are what the agent puts into the conversation. The arguments are a JSON
 * object; values that are not strings are sent as JSON text.
 */
export const promptCommand: MCPCommand<PromptArgs> = {
  name: "prompt",
  usage: "/prompt <server> <name> [json arguments]",
  description: "get a server's prompt and put its messages into the conversation",
  parse: parsePromptArgs,
  run: prompt,
};

async function prompt({
  ctx,
  input: { server, name, rawArgs },
  signal,
}: MCPCommandCall<PromptArgs>): Promise<MCPCommandResult> {
  let args: Record<string, string> = {};
  if (rawArgs.trim() !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawArgs);
    } catch (error) {
      return failure({
        code: "USAGE",
        message: `The arguments must be a JSON object, e.g. {"city": "Lisbon"}: ${errorMessage(error)}`,
      });
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      return failure({
        code: "USAGE",
        message: 'The arguments must be a JSON object, e.g. {"city": "Lisbon"}',
      });
    }
    args = Object.fromEntries(
      Object.entries(parsed).map(([key, value]) => [
        key,
        typeof value === "string" ? value : JSON.stringify(value),
      ]),
    );
  }
  const result = await ctx.manager.getPrompt({ server, name, arguments: args, signal });
  const head = `Prompt ${server}/${name}${result.description ? `: ${result.description}` : ""}`;
  return ok(`${head}\n${formatPromptMessages(result)}`, { server, name, messages: result.messages });
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
