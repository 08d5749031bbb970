import { homedir } from "node:os";
import { errorMessage } from "@mcp-rt/config/util";
import { McpRtError } from "@mcp-rt/manager";
import type { AgentSession } from "./agent-session.js";
import { splitCommandLine } from "./command-line.js";
import type { ReadSecret } from "./mcp-command.js";
import { MCPCommandContext } from "./mcp-command-context.js";
import { failure, type MCPCommandResult, usageError } from "./mcp-command-result.js";
import { findCommand, helpText, unknownCommand } from "./mcp-commands/mcp-commands.js";
import { createNativeConfigWriter, type NativeConfigWriter } from "./native-config-writer.js";

/** Options of {@link MCPCommandController}. */
export interface MCPCommandControllerOptions {
  /** Edits the native config files. @default a writer for the session's cwd and home */
  writer?: NativeConfigWriter;
  /** How long `/mcp test` waits for connect + `tools/list`. @default the server's `timeout`, else 30000 */
  testTimeoutMs?: number;
  /**
   * How long `enable`, `add`, `remove` and `trust` wait for the servers they
   * start before answering; a slower server shows as still connecting and its
   * tools follow. @default 5000
   */
  connectWaitMs?: number;
  /**
   * Reads a secret without showing it, for `/mcp key` (the agent's terminal:
   * echo off); `signal` is the command's (a Ctrl-C). Without it, `/mcp key`
   * says to use `mcp-rt-config key set`.
   */
  readSecret?: ReadSecret;
}

/**
 * The `/mcp` command of an agent: `handle("/mcp list")` and friends. Commands
 * run one at a time; none throws: bad input, unknown servers and failures come
 * back as `ok: false` with a message saying what to change.
 *
 * @example
 * ```ts
 * const mcp = new MCPCommandController(session);
 * const { text } = await mcp.handle("/mcp disable github");
 * ```
 */
export class MCPCommandController {
  readonly #session: AgentSession;
  readonly #writer: NativeConfigWriter;
  readonly #testTimeoutMs: number | undefined;
  readonly #connectWaitMs: number;
  readonly #readSecret: ReadSecret | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(session: AgentSession, options: MCPCommandControllerOptions = {}) {
    this.#session = session;
    this.#writer =
      options.writer ??
      createNativeConfigWriter({ cwd: session.cwd, homeDir: session.loadOptions.homeDir ?? homedir() });
    this.#testTimeoutMs = options.testTimeoutMs;
    this.#connectWaitMs = options.connectWaitMs ?? 5000;
    this.#readSecret = options.readSecret;
  }

  /**
   * Runs one command line, `/mcp <subcommand> …` (the `/mcp` prefix is
   * optional), or `/prompt <server> <name> [json arguments]` (the same as
   * `/mcp prompt …`). `signal` cancels a command that waits for the user
   * (`/mcp login`) or for a server.
   */
  handle(line: string, options: { signal?: AbortSignal } = {}): Promise<MCPCommandResult> {
    const run = this.#queue.then(() => this.#handle(line, options.signal));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #handle(line: string, signal: AbortSignal | undefined): Promise<MCPCommandResult> {
    const split = splitCommandLine(line);
    if (!split.ok)
      return {
        ok: false,
        text: `✗ ${split.error}\n${helpText()}`,
        data: { error: { code: "USAGE", message: split.error } },
      };
    const words = split.words;
    if (words[0] === "/mcp" || words[0] === "mcp") words.shift();
    if (words[0] === "/prompt") words[0] = "prompt";
    const [sub = "list", ...args] = words;
    const command = findCommand(sub);
    if (!command) return unknownCommand(sub);
    try {
      const ctx = new MCPCommandContext({
        session: this.#session,
        writer: this.#writer,
        connectWaitMs: this.#connectWaitMs,
        testTimeoutMs: this.#testTimeoutMs,
      });
      // Without MCP a command says so before it looks at its arguments.
      if (!command.offline) ctx.requireManager();
      const parsed = command.parse(args, line);
      if (!parsed.ok) return usageError(command.usage, parsed.error);
      return await command.run({ ctx, input: parsed.value, signal, readSecret: this.#readSecret });
    } catch (error) {
      const code = McpRtError.isInstance(error) ? error.code : "ERROR";
      return failure({ code, message: errorMessage(error) });
    }
  }
}
