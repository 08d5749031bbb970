import type { ArgsResult } from "./mcp-command-args.js";
import type { MCPCommandContext } from "./mcp-command-context.js";
import type { MCPCommandResult } from "./mcp-command-result.js";

/** Reads a secret without showing it (the agent's terminal, echo off); `signal` is the command's. */
export type ReadSecret = (prompt: string, signal?: AbortSignal) => Promise<string>;

/** One run of a `/mcp` command: its context and its parsed input. */
export interface MCPCommandCall<T> {
  ctx: MCPCommandContext;
  /** What `parse` made of the arguments. */
  input: T;
  /** Cancels a command that waits for the user or a server (a Ctrl-C). */
  signal: AbortSignal | undefined;
  /** The agent's way to read a secret, for `/mcp key`. */
  readSecret: ReadSecret | undefined;
}

/**
 * One `/mcp` subcommand: what the help says of it and how it runs. The
 * table of them (`MCP_COMMANDS`) is all the dispatcher and the help read, so
 * a command cannot be listed and not wired.
 */
export interface MCPCommand<T = unknown> {
  /** The word after `/mcp`. */
  readonly name: string;
  /** The usage line, shown by the help and with every usage error. */
  readonly usage: string;
  /** What it does, in one line of the help. */
  readonly description: string;
  /** True for a command that works without MCP (the help); the others answer `NOT_CONNECTED` then. @default false */
  readonly offline?: boolean;
  /** The arguments after the subcommand (`line`: the whole raw line, for a command that needs its quotes). */
  parse(words: readonly string[], line: string): ArgsResult<T>;
  /** Does it; a thrown `McpRtError` becomes a failure with its code. */
  run(call: MCPCommandCall<T>): MCPCommandResult | Promise<MCPCommandResult>;
}
