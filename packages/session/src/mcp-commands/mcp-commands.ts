import type { MCPCommand } from "../mcp-command.js";
import { parseNoArgs } from "../mcp-command-args.js";
import { type MCPCommandResult, ok } from "../mcp-command-result.js";
import { addCommand } from "./add-command.js";
import { disableCommand } from "./disable-command.js";
import { enableCommand } from "./enable-command.js";
import { explainCommand } from "./explain-command.js";
import { keyCommand } from "./key-command.js";
import { listCommand } from "./list-command.js";
import { loginCommand, logoutCommand } from "./login-command.js";
import { pinCommand, unpinCommand } from "./pin-command.js";
import { promptCommand } from "./prompt-command.js";
import { promptsCommand } from "./prompts-command.js";
import { readCommand } from "./read-command.js";
import { reloadCommand } from "./reload-command.js";
import { removeCommand } from "./remove-command.js";
import { resourcesCommand } from "./resources-command.js";
import { reviewCommand } from "./review-command.js";
import { testCommand } from "./test-command.js";
import { trustCommand, untrustCommand } from "./trust-command.js";

/** `/mcp help`: the usage and description of every command of the table, in its order. */
const helpCommand: MCPCommand<undefined> = {
  name: "help",
  usage: "/mcp help",
  description: "this help",
  offline: true,
  parse: parseNoArgs,
  run: () => ok(helpText(), { usage: usageLines() }),
};

/**
 * Every `/mcp` command, in the order the help lists them: the one table the
 * dispatcher and the help read.
 */
export const MCP_COMMANDS: readonly MCPCommand[] = [
  helpCommand,
  listCommand,
  reloadCommand,
  enableCommand,
  disableCommand,
  addCommand,
  removeCommand,
  testCommand,
  explainCommand,
  trustCommand,
  untrustCommand,
  reviewCommand,
  loginCommand,
  logoutCommand,
  keyCommand,
  pinCommand,
  unpinCommand,
  resourcesCommand,
  readCommand,
  promptsCommand,
  promptCommand,
];

/** The command named `name`, if the table has it. */
export function findCommand(name: string): MCPCommand | undefined {
  return MCP_COMMANDS.find((command) => command.name === name);
}

/** Each command's usage line, by name. */
export function usageLines(): Record<string, string> {
  return Object.fromEntries(MCP_COMMANDS.map((command) => [command.name, command.usage]));
}

/** The help: each command's usage line and, below it, what it does. */
export function helpText(): string {
  return [
    "MCP commands:",
    ...MCP_COMMANDS.map((command) => `  ${command.usage}\n      ${command.description}`),
  ].join("\n");
}

/** The answer to a subcommand the table does not have: the error, naming every known one, and the help. */
export function unknownCommand(name: string): MCPCommandResult {
  return {
    ok: false,
    text: `✗ Unknown subcommand "${name}".\n${helpText()}`,
    data: {
      error: {
        code: "USAGE",
        message: `unknown subcommand "${name}"`,
        known: MCP_COMMANDS.map((c) => c.name),
      },
      usage: usageLines(),
    },
  };
}
