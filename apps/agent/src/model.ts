import type { CustomTool, ModelTools, ToolResult } from "@mcp-rt/session";
import type { Output } from "./output.js";

/** What a model gets for one turn: the tools it may call and how to call them. */
export interface ModelTurn {
  /**
   * The conversation's tools: `visible()` before each request (every active
   * tool, or the loaded ones and `mcp_tool_search` while tool search is on),
   * `find(name)` for each call the model makes.
   */
  tools: ModelTools;
  /** Runs one tool call and shows it; rejects only with an `AbortError`. */
  runTool(tool: CustomTool, args: unknown, callId?: string): Promise<ToolResult>;
  output: Output;
  /** Aborted by Ctrl-C. */
  signal: AbortSignal;
  /** The servers' own instructions, each labelled with its server (`session.instructions()`), for the system prompt; `""` for none. */
  instructions: string;
}

/** What answers a line that is not a /command. */
export interface Model {
  /** One line for the banner: which model, and what it can do. */
  readonly description: string;
  /**
   * Answers one line of the user. Resolves `false` when the turn failed (the
   * failure was shown); rejects only with an `AbortError`.
   */
  respond(input: string, turn: ModelTurn): Promise<boolean>;
}
