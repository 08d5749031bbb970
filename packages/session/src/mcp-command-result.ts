/** What a `/mcp` command returns: text for a terminal, data for a UI. */
export interface MCPCommandResult {
  /** What to print. */
  text: string;
  /** The same facts, structured (the list, the test result, the error…). */
  data?: unknown;
  /** False when the command did not do what was asked (bad input, unknown server, failure). */
  ok: boolean;
}

/** A command that did what was asked. */
export function ok(text: string, data?: unknown): MCPCommandResult {
  return data === undefined ? { ok: true, text } : { ok: true, text, data };
}

/** What went wrong: its code, the message saying what to change, and any details for a UI. */
export interface CommandError {
  code: string;
  message: string;
  [detail: string]: unknown;
}

/** A command that failed: `✗ message`, and `data.error` with the code and details. */
export function failure(error: CommandError): MCPCommandResult {
  return { ok: false, text: `✗ ${error.message}`, data: { error } };
}

/** Bad input to a subcommand: the problem and that subcommand's `usage` line. */
export function usageError(usage: string, problem: string): MCPCommandResult {
  return {
    ok: false,
    text: `✗ ${problem}\nUsage: ${usage}`,
    data: { error: { code: "USAGE", message: problem, usage } },
  };
}

/** Every line of `text`, prefixed. */
export function indent(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((line) => `${prefix}${line}`)
    .join("\n");
}
