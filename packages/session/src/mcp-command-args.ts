import { parseArgs } from "node:util";
import { errorMessage } from "@mcp-rt/config/util";
import type { MCPServerConfig } from "@mcp-rt/manager";
import { parsePairs } from "./command-line.js";
import type { ConfigScope } from "./native-config-writer.js";
import { isValidServerName } from "./server-name.js";

/** Either a value or a message saying what is wrong with the input. */
export type ArgsResult<T> = { ok: true; value: T } | { ok: false; error: string };

const NAME_RULE = 'names use 1–100 letters, digits, "_", "." or "-"';

function fail<T>(error: string): ArgsResult<T> {
  return { ok: false, error };
}

function parseScope(scope: string | undefined): ArgsResult<ConfigScope | undefined> {
  if (scope === undefined || scope === "user" || scope === "project") return { ok: true, value: scope };
  return fail(`--scope must be "user" or "project", not "${scope}"`);
}

function checkName(name: string | undefined): ArgsResult<string> {
  if (name === undefined) return fail("missing <name>");
  if (!isValidServerName(name)) return fail(`"${name}" is not a valid server name: ${NAME_RULE}`);
  return { ok: true, value: name };
}

/** `<name>` and nothing else (enable, disable, test, explain, pin, unpin…). */
export function parseNameArgs(words: readonly string[]): ArgsResult<string> {
  if (words.length > 1) return fail(`unexpected "${words[1]}"`);
  if (words[0]?.startsWith("-")) return fail(`unknown option "${words[0]}"`);
  return checkName(words[0]);
}

/** An optional `<name>` and nothing else (`/mcp list [name]`). */
export function parseOptionalNameArgs(words: readonly string[]): ArgsResult<string | undefined> {
  return words.length === 0 ? { ok: true, value: undefined } : parseNameArgs(words);
}

/** `/mcp reload`'s one option: `--all` restarts every server. */
export function parseReloadArgs(words: readonly string[]): ArgsResult<{ all: boolean }> {
  const [first, second] = words;
  if (first === undefined) return { ok: true, value: { all: false } };
  if (first !== "--all")
    return fail(first.startsWith("-") ? `unknown option "${first}"` : `unexpected "${first}"`);
  return second === undefined ? { ok: true, value: { all: true } } : fail(`unexpected "${second}"`);
}

/** No arguments at all (list, trust, untrust, help). */
export function parseNoArgs(words: readonly string[]): ArgsResult<undefined> {
  return words.length === 0 ? { ok: true, value: undefined } : fail(`unexpected "${words[0]}"`);
}

/** What `/mcp add` asked for. */
export interface AddArgs {
  name: string;
  scope: ConfigScope;
  config: MCPServerConfig;
}

/** Parses `/mcp add` arguments (after the subcommand). */
export function parseAddArgs(words: readonly string[]): ArgsResult<AddArgs> {
  let parsed: ReturnType<typeof parseAdd>;
  try {
    parsed = parseAdd(words);
  } catch (error) {
    return fail(errorMessage(error));
  }
  const { values, tokens } = parsed;
  const terminator =
    tokens.find((token) => token.kind === "option-terminator")?.index ?? Number.POSITIVE_INFINITY;
  const before: string[] = [];
  const after: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") (token.index < terminator ? before : after).push(token.value);
  }
  const name = checkName(before[0]);
  if (!name.ok) return name;
  if (before.length > 1) return fail(`unexpected "${before[1]}" (put the command after "--")`);
  const scope = parseScope(values.scope);
  if (!scope.ok) return scope;
  const env = parsePairs(values.env ?? []);
  if (!env.ok) return fail(`--env expects K=V, got ${unpaired(env.bad)}`);
  const headers = parsePairs(values.header ?? []);
  if (!headers.ok) return fail(`--header expects K=V, got ${unpaired(headers.bad)}`);

  const hasCommand = terminator !== Number.POSITIVE_INFINITY;
  if (values.url !== undefined && hasCommand) return fail("give either --url or -- <command>, not both");
  if (values.url === undefined && !hasCommand) return fail("give --url <url> or -- <command> [args…]");

  const common = { name: name.value, scope: scope.value ?? "user" } as const;
  if (values.url !== undefined) {
    if (values.env !== undefined)
      return fail("--env applies to a command (stdio) server; use --header for --url");
    const transport = values.transport;
    if (transport !== undefined && transport !== "http" && transport !== "sse") {
      return fail(`--transport must be "http" or "sse", not "${transport}"`);
    }
    const config: MCPServerConfig = { url: values.url };
    if (transport !== undefined) config.type = transport;
    if (values.header !== undefined) config.headers = headers.value;
    return { ok: true, value: { ...common, config } };
  }
  if (values.transport !== undefined) return fail("--transport applies to --url servers only");
  if (values.header !== undefined)
    return fail("--header applies to --url servers only; use --env for a command");
  const [command, ...args] = after;
  if (command === undefined || command === "") return fail('missing the command after "--"');
  const config: MCPServerConfig = { command };
  if (args.length > 0) config.args = args;
  if (values.env !== undefined) config.env = env.value;
  return { ok: true, value: { ...common, config } };
}

// What a malformed K=V was, without its text: it is likely a secret (`Authorization: Bearer …`).
function unpaired(pair: string): string {
  if (pair.startsWith("=")) return 'no name before "="';
  const name = /^([A-Za-z_][\w-]*)\s*:/.exec(pair)?.[1];
  return name === undefined ? 'no "="' : `"${name}: …" (write ${name}=…)`;
}

function parseAdd(words: readonly string[]) {
  return parseArgs({
    args: [...words],
    options: {
      scope: { type: "string" },
      url: { type: "string" },
      transport: { type: "string" },
      header: { type: "string", multiple: true },
      env: { type: "string", multiple: true },
    },
    allowPositionals: true,
    strict: true,
    tokens: true,
  });
}

/** What `/mcp remove` asked for. */
export interface RemoveArgs {
  name: string;
  scope: ConfigScope | undefined;
}

/** Parses `/mcp remove` arguments (after the subcommand). */
export function parseRemoveArgs(words: readonly string[]): ArgsResult<RemoveArgs> {
  let parsed: { values: { scope?: string | undefined }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...words],
      options: { scope: { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return fail(errorMessage(error));
  }
  const name = checkName(parsed.positionals[0]);
  if (!name.ok) return name;
  if (parsed.positionals.length > 1) return fail(`unexpected "${parsed.positionals[1]}"`);
  const scope = parseScope(parsed.values.scope);
  if (!scope.ok) return scope;
  return { ok: true, value: { name: name.value, scope: scope.value } };
}

/** `/mcp resources [server]`: at most one server. */
export function parseResourcesArgs(words: readonly string[]): ArgsResult<string | undefined> {
  return words.length > 1 ? fail(`unexpected "${words[1]}"`) : { ok: true, value: words[0] };
}

/** What `/mcp read` asked for. */
export interface ReadArgs {
  server: string;
  uri: string;
}

/** `/mcp read <server> <uri>`. */
export function parseReadArgs(words: readonly string[]): ArgsResult<ReadArgs> {
  const [server, uri, extra] = words;
  if (server === undefined || uri === undefined) return fail("give a server and a URI");
  if (extra !== undefined) return fail(`unexpected "${extra}"`);
  return { ok: true, value: { server, uri } };
}

/** What `/prompt` asked for; `rawArgs` is the JSON text as typed. */
export interface PromptArgs {
  server: string;
  name: string;
  rawArgs: string;
}

/** `/prompt <server> <name> [json arguments]`, read from the raw `line`: the shell-like split would eat the JSON's quotes. */
export function parsePromptArgs(_words: readonly string[], line: string): ArgsResult<PromptArgs> {
  const match = /^\s*(?:\/?mcp\s+)?\/?prompt\s+(\S+)\s+(\S+)\s*([\s\S]*)$/.exec(line);
  if (!match) return fail("give a server and a prompt name");
  return { ok: true, value: { server: match[1] ?? "", name: match[2] ?? "", rawArgs: match[3] ?? "" } };
}
