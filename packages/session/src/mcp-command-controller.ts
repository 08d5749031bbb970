import { homedir } from "node:os";
import { errorMessage } from "@mcp-rt/config/util";
import { McpRtError } from "@mcp-rt/manager";
import type { AgentSession } from "./agent-session.js";
import { splitCommandLine } from "./command-line.js";
import { keyCommand, loginCommand, logoutCommand } from "./mcp-auth-commands.js";
import {
  parseAddArgs,
  parseNameArgs,
  parseNoArgs,
  parseReloadArgs,
  parseRemoveArgs,
  USAGE,
} from "./mcp-command-args.js";
import { MCPCommandContext } from "./mcp-command-context.js";
import { failure, type MCPCommandResult, ok, usageError } from "./mcp-command-result.js";
import { addCommand, disableCommand, enableCommand, removeCommand } from "./mcp-config-commands.js";
import { promptCommand, promptsCommand, readCommand, resourcesCommand } from "./mcp-content-commands.js";
import { pinCommand } from "./mcp-pin-commands.js";
import { explainCommand, listCommand, reloadCommand, testCommand } from "./mcp-status-commands.js";
import { trustCommand, untrustCommand } from "./mcp-trust-commands.js";
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
  readSecret?: (prompt: string, signal?: AbortSignal) => Promise<string>;
}

const DESCRIPTIONS: Record<string, string> = {
  help: "this help",
  list: "every configured server: status, tools, connect time, last error",
  reload: "read the config files again; restart only the servers that changed (--all: every server)",
  enable: "turn a server on (saved in ~/.mcp-rt/mcp.json or .mcp-rt/mcp.json)",
  disable: "turn a server off; other servers keep running",
  add: "add a server to mcp-rt's own config and start it",
  remove: "remove a server from mcp-rt's own config and stop it",
  test: "connect once, list the tools, disconnect",
  explain: "where a server is defined and why it does or does not start",
  trust: "approve this project's project-level servers and start them",
  untrust: "withdraw that approval and stop them",
  login: "sign in to a remote server (OAuth, in the browser) and connect it",
  logout: "delete a remote server's sign-in and disconnect it",
  key: "store a server's API key (typed without echo) and start it",
  pin: "always give the model this server's tools, even with tool search on (saved)",
  unpin: "let its tools go through tool search again (saved)",
  resources: "the servers' resources and resource templates (or one server's)",
  read: "read one resource, as the model would get it",
  prompts: "the servers' prompts and their arguments",
  prompt: "get a server's prompt and put its messages into the conversation",
};

const HELP_TEXT = [
  "MCP commands:",
  ...Object.entries(USAGE).map(([name, usage]) => `  ${usage}\n      ${DESCRIPTIONS[name]}`),
].join("\n");

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
  readonly #readSecret: ((prompt: string, signal?: AbortSignal) => Promise<string>) | undefined;
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
        text: `✗ ${split.error}\n${HELP_TEXT}`,
        data: { error: { code: "USAGE", message: split.error } },
      };
    const words = split.words;
    if (words[0] === "/mcp" || words[0] === "mcp") words.shift();
    if (words[0] === "/prompt") words[0] = "prompt";
    const [sub = "list", ...args] = words;
    if (!Object.hasOwn(USAGE, sub)) {
      return {
        ok: false,
        text: `✗ Unknown subcommand "${sub}".\n${HELP_TEXT}`,
        data: { error: { code: "USAGE", message: `unknown subcommand "${sub}"` }, usage: USAGE },
      };
    }
    if (sub === "help") {
      const none = parseNoArgs(args);
      return none.ok ? ok(HELP_TEXT, { usage: USAGE }) : usageError(sub, none.error);
    }
    const manager = this.#session.mcpManager;
    if (!manager || this.#session.disposed) {
      const why = this.#session.disposed
        ? "this session was disposed"
        : "MCP is off in this session (enableMCP: false)";
      return failure("NOT_CONNECTED", `${why}.`);
    }
    try {
      const ctx = new MCPCommandContext({
        session: this.#session,
        manager,
        writer: this.#writer,
        connectWaitMs: this.#connectWaitMs,
        testTimeoutMs: this.#testTimeoutMs,
      });
      if (sub === "resources" || sub === "read" || sub === "prompts" || sub === "prompt") {
        return await contentCommand(ctx, sub, args, line, signal);
      }
      return await dispatch(ctx, sub, args, { signal, readSecret: this.#readSecret });
    } catch (error) {
      const code = McpRtError.isInstance(error) ? error.code : "ERROR";
      return failure(code, errorMessage(error));
    }
  }
}

/** The resource and prompt commands; `/prompt` takes the rest of the raw line as its JSON arguments. */
async function contentCommand(
  ctx: MCPCommandContext,
  sub: "resources" | "read" | "prompts" | "prompt",
  args: string[],
  line: string,
  signal: AbortSignal | undefined,
): Promise<MCPCommandResult> {
  if (sub === "prompts") {
    const none = parseNoArgs(args);
    return none.ok ? promptsCommand(ctx) : usageError(sub, none.error);
  }
  if (sub === "resources") {
    if (args.length > 1) return usageError(sub, `unexpected "${args[1]}"`);
    return resourcesCommand(ctx, args[0]);
  }
  if (sub === "read") {
    const [server, uri, extra] = args;
    if (server === undefined || uri === undefined) return usageError(sub, "give a server and a URI");
    if (extra !== undefined) return usageError(sub, `unexpected "${extra}"`);
    return readCommand(ctx, server, uri, signal);
  }
  // The JSON arguments are taken from the raw line: the shell-like split would eat their quotes.
  const match = /^\s*(?:\/?mcp\s+)?\/?prompt\s+(\S+)\s+(\S+)\s*([\s\S]*)$/.exec(line);
  if (!match) return usageError(sub, "give a server and a prompt name");
  return promptCommand(ctx, match[1] ?? "", match[2] ?? "", match[3] ?? "", signal);
}

function dispatch(
  ctx: MCPCommandContext,
  sub: string,
  args: string[],
  user: {
    signal: AbortSignal | undefined;
    readSecret: ((prompt: string, signal?: AbortSignal) => Promise<string>) | undefined;
  },
): Promise<MCPCommandResult> {
  switch (sub) {
    case "list":
    case "trust":
    case "untrust": {
      const none = parseNoArgs(args);
      if (!none.ok) return Promise.resolve(usageError(sub, none.error));
      if (sub === "list") return listCommand(ctx);
      return sub === "trust" ? trustCommand(ctx) : untrustCommand(ctx);
    }
    case "reload": {
      const parsed = parseReloadArgs(args);
      return parsed.ok ? reloadCommand(ctx, parsed.value) : Promise.resolve(usageError(sub, parsed.error));
    }
    case "add": {
      const parsed = parseAddArgs(args);
      return parsed.ok ? addCommand(ctx, parsed.value) : Promise.resolve(usageError(sub, parsed.error));
    }
    case "remove": {
      const parsed = parseRemoveArgs(args);
      return parsed.ok ? removeCommand(ctx, parsed.value) : Promise.resolve(usageError(sub, parsed.error));
    }
    default: {
      const parsed = parseNameArgs(args);
      if (!parsed.ok) return Promise.resolve(usageError(sub, parsed.error));
      if (sub === "enable") return enableCommand(ctx, parsed.value);
      if (sub === "disable") return disableCommand(ctx, parsed.value);
      if (sub === "test") return testCommand(ctx, parsed.value);
      if (sub === "login") return loginCommand(ctx, parsed.value, user.signal);
      if (sub === "logout") return logoutCommand(ctx, parsed.value);
      if (sub === "key") return keyCommand(ctx, parsed.value, user.readSecret, user.signal);
      if (sub === "pin" || sub === "unpin") return pinCommand(ctx, parsed.value, sub === "pin");
      return explainCommand(ctx, parsed.value);
    }
  }
}
