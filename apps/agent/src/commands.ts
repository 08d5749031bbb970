import { errorMessage } from "@mcp-rt/config/util";
import type { AgentSession, CustomTool, MCPCommandController } from "@mcp-rt/session";
import type { Model } from "./model.js";
import type { Output } from "./output.js";
import { runTool } from "./tool-runner.js";
import { toolsCommand } from "./tools-command.js";

/** What running a line ended with. */
export type LineOutcome = "ok" | "failed" | "quit";

/** Options of {@link createCommands}. */
export interface CommandsOptions {
  session: AgentSession;
  /** The session's `/mcp` controller. */
  mcp: MCPCommandController;
  model: Model;
  output: Output;
}

/** Runs one line of the user: a /command, or a prompt for the model. */
export interface Commands {
  /** Runs `line`; `signal` is aborted by Ctrl-C. Rejects only with an `AbortError`. */
  run(line: string, signal: AbortSignal): Promise<LineOutcome>;
}

/** The text `/help` prints. */
export const HELP: string = `Commands:
  /mcp [list|reload|enable|disable|add|remove|test|explain|trust|untrust|login|logout|key|resources|read|prompts|help] …
                         manage MCP servers (/mcp help for details)
  /prompt <server> <name> [json]
                         get a server's prompt and send its messages to the model
  @<server>:<uri>        in a prompt: attach that resource (text inline, binary as a note)
  /tools [words]         list the tools (matching the words, best first)
  /tools search <words>  what mcp_tool_search answers the model for these words
  /tools --cost          the tools whose definitions cost the model the most tokens
  /call <tool> [json]    call a tool, e.g. /call mcp_everything_echo {"message":"hi"}
  /help                  this help
  /quit                  disconnect every server and exit (also Ctrl-D, or Ctrl-C twice)
Anything else goes to the model. Ctrl-C cancels a running tool call or model turn.`;

/**
 * What the model gets for a prompt: each message's text (an embedded
 * resource's text under its URI); a message of another role than the user's
 * says whose it is.
 */
function promptText(data: unknown): string {
  const messages =
    (data as { messages?: Array<{ role: string; content: Record<string, unknown> }> }).messages ?? [];
  return messages
    .map(({ role, content }) => {
      const resource = content.resource as { uri?: string; text?: string } | undefined;
      const body =
        content.type === "text"
          ? String(content.text ?? "")
          : resource
            ? `[resource ${resource.uri ?? ""}]${resource.text === undefined ? "" : `\n${resource.text}`}`
            : `[${String(content.type)}]`;
      return role === "user" ? body : `[${role}] ${body}`;
    })
    .join("\n\n");
}

/** Finds a tool by its exposed name, or by its `server/tool` label. */
function findTool(tools: CustomTool[], name: string): CustomTool | undefined {
  return tools.find((tool) => tool.name === name) ?? tools.find((tool) => tool.label === name);
}

/** The agent's commands: `/mcp …`, `/tools`, `/call`, `/help`, `/quit`; other lines go to the model. */
export function createCommands(options: CommandsOptions): Commands {
  const { session, mcp, model, output } = options;
  // One conversation per agent run: the tools the model loaded stay loaded across its turns.
  const modelTools = session.modelTools();

  const fail = (text: string, code: string): LineOutcome => {
    output.write("error", `✗ ${text}`, { code });
    return "failed";
  };

  /**
   * A tool that is not there yet may be one of a server still connecting (one the start did not
   * wait for, or a slow one): waits for those servers, each within its own `timeout`, then looks
   * again. Undefined when no server is connecting or the tool is still not there.
   */
  const onceConnected = async (name: string, signal: AbortSignal): Promise<CustomTool | undefined> => {
    const manager = session.mcpManager;
    const connecting = manager?.getServerStates().filter((state) => state.status === "connecting") ?? [];
    if (!manager || connecting.length === 0) return undefined;
    const names = connecting.map((state) => state.name);
    output.write("status", `… ${name}: waiting for ${names.join(", ")} to connect`, { servers: names });
    await Promise.allSettled(names.map((server) => manager.waitForConnection(server, { signal })));
    signal.throwIfAborted();
    session.syncMCPTools();
    return findTool(session.activeTools(), name);
  };

  const call = async (rest: string, signal: AbortSignal): Promise<LineOutcome> => {
    const match = /^(\S+)\s*([\s\S]*)$/.exec(rest.trim());
    if (!match)
      return fail('Usage: /call <tool> [json], e.g. /call mcp_everything_echo {"message":"hi"}', "USAGE");
    const [, name = "", json = ""] = match;
    const tool = findTool(session.activeTools(), name) ?? (await onceConnected(name, signal));
    if (!tool) {
      const near = session.toolSearch.rank(name.replace(/^mcp_/, "").replace(/_/g, " "), 5);
      const hint = near.length > 0 ? ` Did you mean ${near.map((t) => t.name).join(", ")}?` : "";
      return fail(`No tool named "${name}".${hint} /tools lists them.`, "TOOL_NOT_FOUND");
    }
    let args: unknown = {};
    if (json.trim()) {
      try {
        args = JSON.parse(json);
      } catch (error) {
        return fail(`The arguments are not valid JSON (${errorMessage(error)}).`, "USAGE");
      }
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      return fail('The arguments must be a JSON object, e.g. {"message":"hi"}.', "USAGE");
    }
    const result = await runTool(tool, args, { output, signal });
    return result.isError ? "failed" : "ok";
  };

  return {
    async run(line, signal) {
      const trimmed = line.trim();
      if (trimmed === "") return "ok";
      const [word = "", ...restWords] = trimmed.split(/\s+/);
      const rest = trimmed.slice(word.length);
      switch (word) {
        case "/quit":
        case "/exit":
          return "quit";
        case "/help":
          output.write("result", HELP, { command: "help" });
          return "ok";
        case "/tools":
          toolsCommand(session, output, restWords);
          return "ok";
        case "/call":
          return call(rest, signal);
        case "/prompt": {
          const result = await mcp.handle(trimmed, { signal });
          output.write(result.ok ? "result" : "error", result.text, {
            command: "prompt",
            ok: result.ok,
            ...(result.data === undefined ? {} : { data: result.data }),
          });
          if (!result.ok) return "failed";
          // The prompt's messages are the user's turn: they go into the conversation.
          return (await respond(promptText(result.data), signal)) ? "ok" : "failed";
        }
        case "/mcp": {
          const result = await mcp.handle(trimmed, { signal });
          output.write(result.ok ? "result" : "error", result.text, {
            command: "mcp",
            ok: result.ok,
            ...(result.data === undefined ? {} : { data: result.data }),
          });
          return result.ok ? "ok" : "failed";
        }
      }
      if (word.startsWith("/")) return fail(`Unknown command ${word}; /help lists the commands.`, "USAGE");
      const attached = await session.attachResources(trimmed, { signal });
      for (const attachment of attached.attachments) {
        output.write(
          attachment.isError ? "error" : "notice",
          `${attachment.isError ? "✗" : "📎"} @${attachment.server}:${attachment.uri} ${attachment.isError ? attachment.text : `attached (${attachment.text.length} characters)`}`,
          {
            event: "attachment",
            server: attachment.server,
            uri: attachment.uri,
            isError: attachment.isError,
          },
        );
      }
      return (await respond(attached.text, signal)) ? "ok" : "failed";
    },
  };

  function respond(text: string, signal: AbortSignal): Promise<boolean> {
    return model.respond(text, {
      tools: modelTools,
      runTool: (tool, args, callId) => runTool(tool, args, { output, signal, ...(callId ? { callId } : {}) }),
      output,
      signal,
      instructions: session.instructions(),
    });
  }
}
