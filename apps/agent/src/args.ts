import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { MCPToolChangesPolicy, ToolSearchMode } from "@mcp-rt/session";
import type { ElicitationMode } from "./elicitation.js";

/** Which model answers plain (non-command) lines. */
export type ModelKind = "offline" | "openai";

/** The agent's command line, parsed and checked. */
export interface AgentArgs {
  /** The project folder: where configs are discovered and stdio servers run. */
  cwd: string;
  /** Run the embedded demo servers whatever configs exist. */
  demo: boolean;
  /** A cache URL (`memory:`, `file:…`, `redis://…`); undefined: the default file cache. */
  cache: string | undefined;
  /** A credential store URL (`file:…`, `memory:`, `redis://…`, `keychain:`); undefined: `~/.mcp-rt/auth.json`. */
  auth: string | undefined;
  /** False with `--no-project-config`: project-level files are not read. */
  projectConfig: boolean;
  /** An extra config file (`{ "mcpServers": … }`), read before every other source. */
  config: string | undefined;
  /** Approve (and remember) the project's project-level servers at start. */
  trustProject: boolean;
  /** False with `--no-watch`: edits of the config files are not applied until `/mcp reload`. */
  watch: boolean;
  /** Ping every connected server this often (ms); one that does not answer is reconnected. Undefined: no pings. */
  healthCheckMs: number | undefined;
  /** `--tool-search`: when the model gets `mcp_tool_search` instead of every MCP tool. Undefined: the session's default (auto above 10k tokens). */
  toolSearch: ToolSearchMode | undefined;
  /** `--elicitation`: what to do when a server asks the user for input. */
  elicitation: ElicitationMode;
  /** `--tool-changes`: what a tool whose definition changed since you approved it does (default `ask`). */
  toolChanges: MCPToolChangesPolicy;
  model: ModelKind;
  /** The model name sent to an OpenAI-compatible server. */
  modelName: string;
  /** Lines to run, in order, before exiting; empty: interactive. */
  exec: string[];
  /** Machine-readable output: one JSON object per line. */
  json: boolean;
  help: boolean;
}

/** Either the parsed arguments or what is wrong with them. */
export type ParseAgentArgsResult = { ok: true; args: AgentArgs } | { ok: false; error: string };

/** The text `--help` prints. */
export const USAGE: string = `Usage: mcp-rt-agent [options]

An example coding-agent loop on mcp-rt: finds your MCP server configs (Claude
Code, Cursor, VS Code, Codex, Antigravity, Gemini CLI, Windsurf, Claude Desktop,
mcp-rt),
connects to all of them and lets a model (or you) call their tools. Without any
config it runs an embedded demo of real servers.

Options:
  --cwd <dir>            project folder (default: the current folder)
  --demo                 run the embedded demo servers (everything, filesystem, memory, slow)
  --config <file>        an extra config file { "mcpServers": { … } }, read first
  --no-project-config    do not read project-level config files
  --trust-project        approve this project's project-level servers (remembered)
  --no-watch             do not follow edits of the config files (apply them with /mcp reload)
  --cache <url>          tool cache: memory:, file:[/dir], redis://host:port
                         (default: file cache in $XDG_CACHE_HOME/mcp-rt or ~/.cache/mcp-rt)
  --health-check <ms>    ping every connected server this often; a hung one is reconnected
  --tool-search <when>   on | off | <tokens>: give the model mcp_tool_search instead of every
                         MCP tool's schema (default: when the MCP tools cost more than 10000 tokens)
  --auth <url>           where API keys and sign-ins live: file:[/path], memory:, redis://host:port,
                         keychain: (default: ~/.mcp-rt/auth.json, private to you)
  --tool-changes <when>  a tool whose definition changed since you approved it: ask (default:
                         held, and you are shown the difference), hold (held, one line),
                         allow (exposed and recorded). Review with /mcp review <server>
  --elicitation <mode>   when a server asks you for input: ask (default; on a terminal, else
                         decline), accept-defaults (accept a form with its defaults when no one
                         can be asked), decline
  --model <kind>         offline | openai (default: openai when OPENAI_API_KEY is set)
  --model-name <name>    model for --model openai (default: $OPENAI_MODEL or gpt-4o-mini)
  --exec <line>          run a line (a /command or a prompt), repeatable, then exit
  --json                 print one JSON object per line instead of text
  --help                 show this help

Environment: OPENAI_API_KEY, OPENAI_BASE_URL (default https://api.openai.com/v1),
OPENAI_MODEL. In the REPL, /help lists the commands.`;

const MODELS: readonly ModelKind[] = ["offline", "openai"];
const ELICITATION_MODES: readonly ElicitationMode[] = ["ask", "accept-defaults", "decline"];
const TOOL_CHANGES: readonly MCPToolChangesPolicy[] = ["ask", "hold", "allow"];

/**
 * Parses the agent's command line (`argv` without node and the script).
 * Never throws: bad input comes back as a message naming the flag.
 */
export function parseAgentArgs(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
  cwd: string = process.cwd(),
): ParseAgentArgsResult {
  let values: ReturnType<typeof parse>["values"];
  try {
    ({ values } = parse(argv));
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const model = values.model ?? (env.OPENAI_API_KEY ? "openai" : "offline");
  if (!MODELS.includes(model as ModelKind)) {
    return { ok: false, error: `--model must be one of ${MODELS.join(", ")}, got "${model}"` };
  }
  for (const [flag, value] of [
    ["--cwd", values.cwd],
    ["--config", values.config],
    ["--cache", values.cache],
    ["--auth", values.auth],
    ["--model-name", values["model-name"]],
  ] as const) {
    if (value !== undefined && value.trim() === "") return { ok: false, error: `${flag} needs a value` };
  }
  const healthCheck = values["health-check"];
  const healthCheckMs = healthCheck === undefined ? undefined : Number(healthCheck);
  if (
    healthCheckMs !== undefined &&
    !(Number.isInteger(healthCheckMs) && healthCheckMs > 0 && healthCheckMs <= 2_147_483_647)
  ) {
    return {
      ok: false,
      error: `--health-check needs a whole number of milliseconds above 0, got "${healthCheck}"`,
    };
  }
  const elicitation = values.elicitation ?? "ask";
  if (!ELICITATION_MODES.includes(elicitation as ElicitationMode)) {
    return {
      ok: false,
      error: `--elicitation must be one of ${ELICITATION_MODES.join(", ")}, got "${elicitation}"`,
    };
  }
  const toolChanges = values["tool-changes"] ?? "ask";
  if (!TOOL_CHANGES.includes(toolChanges as MCPToolChangesPolicy)) {
    return {
      ok: false,
      error: `--tool-changes must be one of ${TOOL_CHANGES.join(", ")}, got "${toolChanges}"`,
    };
  }
  const toolSearch = parseToolSearch(values["tool-search"]);
  if (toolSearch === null) {
    return {
      ok: false,
      error: `--tool-search must be on, off or a number of tokens, got "${values["tool-search"]}"`,
    };
  }
  return {
    ok: true,
    args: {
      cwd: resolve(cwd, values.cwd ?? "."),
      demo: values.demo ?? false,
      cache: values.cache,
      auth: values.auth,
      projectConfig: !(values["no-project-config"] ?? false),
      config: values.config === undefined ? undefined : resolve(cwd, values.config),
      trustProject: values["trust-project"] ?? false,
      watch: !(values["no-watch"] ?? false),
      healthCheckMs,
      toolSearch,
      elicitation: elicitation as ElicitationMode,
      toolChanges: toolChanges as MCPToolChangesPolicy,
      model: model as ModelKind,
      modelName: values["model-name"] ?? env.OPENAI_MODEL ?? "gpt-4o-mini",
      exec: values.exec ?? [],
      json: values.json ?? false,
      help: values.help ?? false,
    },
  };
}

/** `on`, `off`, or a token threshold for `{ auto }`; `null` for anything else. */
function parseToolSearch(value: string | undefined): ToolSearchMode | undefined | null {
  if (value === undefined || value === "on" || value === "off") return value;
  const auto = Number(value);
  return value.trim() !== "" && Number.isInteger(auto) && auto >= 0 ? { auto } : null;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      cwd: { type: "string" },
      demo: { type: "boolean" },
      config: { type: "string" },
      "no-project-config": { type: "boolean" },
      "trust-project": { type: "boolean" },
      "no-watch": { type: "boolean" },
      cache: { type: "string" },
      "health-check": { type: "string" },
      "tool-search": { type: "string" },
      elicitation: { type: "string" },
      "tool-changes": { type: "string" },
      auth: { type: "string" },
      model: { type: "string" },
      "model-name": { type: "string" },
      exec: { type: "string", multiple: true },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
