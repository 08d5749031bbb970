import { errorMessage } from "@mcp-rt/config/util";
import type { AgentSession, CustomTool, MCPCommandController, MCPManager } from "@mcp-rt/session";
import type { Model } from "./model.js";
import type { Output } from "./output.js";
import { runTool } from "./tool-runner.js";
import { rankTools, summary } from "./tool-search.js";

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
  /mcp [list|reload|enable|disable|add|remove|test|explain|trust|untrust|login|logout|key|help] …
                         manage MCP servers (/mcp help for details)
  /tools [words]         list the tools (matching the words)
  /call <tool> [json]    call a tool, e.g. /call mcp_everything_echo {"message":"hi"}
  /help                  this help
  /quit                  disconnect every server and exit (also Ctrl-D, or Ctrl-C twice)
Anything else goes to the model. Ctrl-C cancels a running tool call or model turn.`;

/** The active tools of the session's registry, in registry order. */
export function activeTools(session: AgentSession): CustomTool[] {
  const active = new Set(session.registry.active());
  return session.registry.list().filter((tool) => active.has(tool.name));
}

/** Names of the servers whose tools are deferred (served from the cache while the server starts). */
function deferredServers(manager: MCPManager | undefined): Set<string> {
  return new Set(
    (manager?.getServerStates() ?? []).filter((state) => state.deferred).map((state) => state.name),
  );
}

/** Finds a tool by its exposed name, or by its `server/tool` label. */
function findTool(tools: CustomTool[], name: string): CustomTool | undefined {
  return tools.find((tool) => tool.name === name) ?? tools.find((tool) => tool.label === name);
}

/** The agent's commands: `/mcp …`, `/tools`, `/call`, `/help`, `/quit`; other lines go to the model. */
export function createCommands(options: CommandsOptions): Commands {
  const { session, mcp, model, output } = options;

  const fail = (text: string, code: string): LineOutcome => {
    output.write("error", `✗ ${text}`, { code });
    return "failed";
  };

  const tools = (filter: string): LineOutcome => {
    const all = activeTools(session);
    const shown = rankTools(all, filter);
    const deferred = deferredServers(session.mcpManager);
    const lines = shown.map((tool) => {
      const server = tool.label.split("/")[0] ?? "";
      const mark = deferred.has(server) ? " (deferred: from the cache, server starting)" : "";
      const description = summary(tool.description);
      return `  ${tool.name}${mark}\n      ${tool.label}${description ? ` — ${description}` : ""}`;
    });
    const title = filter.trim()
      ? `${shown.length} of ${all.length} tools match "${filter.trim()}":`
      : `${all.length} tools:`;
    output.write("result", [title, ...lines].join("\n"), {
      command: "tools",
      tools: shown.map((tool) => ({ name: tool.name, label: tool.label, description: tool.description })),
    });
    return "ok";
  };

  const call = async (rest: string, signal: AbortSignal): Promise<LineOutcome> => {
    const match = /^(\S+)\s*([\s\S]*)$/.exec(rest.trim());
    if (!match)
      return fail('Usage: /call <tool> [json], e.g. /call mcp_everything_echo {"message":"hi"}', "USAGE");
    const [, name = "", json = ""] = match;
    const all = activeTools(session);
    const tool = findTool(all, name);
    if (!tool) {
      const near = rankTools(all, name.replace(/^mcp_/, "").replace(/_/g, " ")).slice(0, 5);
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
          return tools(restWords.join(" "));
        case "/call":
          return call(rest, signal);
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
      return (await model.respond(trimmed, {
        tools: activeTools(session),
        runTool: (tool, args, callId) =>
          runTool(tool, args, { output, signal, ...(callId ? { callId } : {}) }),
        output,
        signal,
      }))
        ? "ok"
        : "failed";
    },
  };
}
