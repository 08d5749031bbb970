import type { AuthStorage } from "./model/auth-storage.js";
import { McpRtError } from "./model/errors.js";
import type { MCPServerConfig } from "./model/server-config.js";
import { isStdioConfig } from "./model/server-config.js";
import { runShellValue } from "./shell-value.js";

/** Options of {@link resolveServerConfig}. */
export interface ResolveServerConfigOptions {
  /** The server's name in its config file: messages name it. */
  name: string;
  /** Its config as written: `!command` values and API keys are resolved in a copy. */
  config: MCPServerConfig;
  /** Where `auth: { type: "apikey", credentialId }` secrets are read from. */
  authStorage?: AuthStorage;
  /** Limit of each `!command` value, in ms. @default 10000 */
  shellTimeoutMs?: number;
  /** Folder `!command` values run in. @default process.cwd() */
  cwd?: string;
  /** Environment of `!command` values. @default process.env */
  env?: Record<string, string | undefined>;
  /** Runs `!command` values again instead of using the outputs kept for the process (and keeps the new ones). @default false */
  fresh?: boolean;
}

type Field = "env" | "headers" | "auth";

/**
 * Turns a config into the one used to connect, at connect time (the step
 * before the connection, in the manager's per-server pipeline):
 *
 * - a value in `env` or `headers` that starts with `!` is a shell command; its
 *   trimmed stdout becomes the value (10 s limit, cached for the process,
 *   identical concurrent runs shared). `!!` keeps a literal leading `!`.
 * - `auth: { type: "apikey", credentialId }` reads the key from `authStorage`
 *   and sends it as `Authorization: Bearer …` (HTTP) or env `MCP_API_KEY` (stdio).
 * - `auth: { type: "oauth", clientSecret }`: a `!command` secret is run the
 *   same way (the OAuth sign-in itself happens in `connectToServer`).
 *
 * Returns a new object and never changes `config`. Keep the unresolved config
 * for caches and logs: the resolved one holds secrets.
 *
 * @throws McpRtError `SHELL_FAILED` naming the server and the field (never the
 * command or its output, which may be secret); `AUTH_REQUIRED` when the API key
 * cannot be found.
 * @example
 * ```ts
 * const resolved = await resolveServerConfig({ name: "github", config, authStorage });
 * const connection = await connectToServer({ name: "github", config: resolved });
 * ```
 */
export async function resolveServerConfig(options: ResolveServerConfigOptions): Promise<MCPServerConfig> {
  const { name, config } = options;
  const resolved = structuredClone(config);
  if (isStdioConfig(resolved)) {
    if (resolved.env) resolved.env = await resolveValues(name, "env", resolved.env, options);
  } else if (resolved.headers) {
    resolved.headers = await resolveValues(name, "headers", resolved.headers, options);
  }
  if (resolved.auth?.type === "oauth" && resolved.auth.clientSecret !== undefined) {
    const { clientSecret } = await resolveValues(
      name,
      "auth",
      { clientSecret: resolved.auth.clientSecret },
      options,
    );
    resolved.auth = { ...resolved.auth, clientSecret };
  }
  if (resolved.auth?.type === "apikey") {
    const key = await readApiKey(name, resolved.auth.credentialId, options.authStorage);
    if (isStdioConfig(resolved)) {
      resolved.env = { ...resolved.env, MCP_API_KEY: key };
    } else {
      const headers = Object.entries(resolved.headers ?? {}).filter(
        ([header]) => header.toLowerCase() !== "authorization",
      );
      resolved.headers = { ...Object.fromEntries(headers), Authorization: `Bearer ${key}` };
    }
  }
  return resolved;
}

/**
 * True when {@link resolveServerConfig} may answer differently for the same
 * config another time: it has a `!command` value (in `env`, `headers` or an
 * OAuth `clientSecret`) or reads an API key from the auth storage.
 */
export function hasRuntimeValues(config: MCPServerConfig): boolean {
  const values = isStdioConfig(config) ? config.env : config.headers;
  const secret = config.auth?.type === "oauth" ? config.auth.clientSecret : undefined;
  return (
    config.auth?.type === "apikey" ||
    [...Object.values(values ?? {}), secret].some((value) => isCommand(value))
  );
}

/** `!command`, not the literal `!!…`. */
function isCommand(value: string | undefined): boolean {
  return value?.startsWith("!") === true && !value.startsWith("!!");
}

async function resolveValues(
  name: string,
  field: Field,
  values: Record<string, string>,
  options: ResolveServerConfigOptions,
): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(values).map(async ([key, value]): Promise<[string, string]> => {
      if (!isCommand(value)) return [key, value.startsWith("!!") ? value.slice(1) : value];
      const result = await runShellValue(value.slice(1), {
        ...(options.shellTimeoutMs === undefined ? {} : { timeoutMs: options.shellTimeoutMs }),
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(options.env === undefined ? {} : { env: options.env }),
        ...(options.fresh ? { fresh: true } : {}),
      });
      if (result.ok) return [key, result.value];
      throw new McpRtError(
        "SHELL_FAILED",
        `Server "${name}": the command in ${field}.${key} ${result.reason}; run it in a shell to see why, ` +
          `then fix it (or the value of ${field}.${key}) in the server's config.`,
        { server: name, details: { field: `${field}.${key}` } },
      );
    }),
  );
  return Object.fromEntries(entries);
}

async function readApiKey(
  name: string,
  credentialId: string,
  storage: AuthStorage | undefined,
): Promise<string> {
  if (!storage) {
    throw new McpRtError(
      "AUTH_REQUIRED",
      `Server "${name}" uses an API key (auth.credentialId "${credentialId}") but no auth storage was given; ` +
        "pass `authStorage` so the key can be read.",
      { server: name, details: { credentialId } },
    );
  }
  let key: string | undefined;
  try {
    key = await storage.get(credentialId);
  } catch (cause) {
    throw new McpRtError(
      "AUTH_REQUIRED",
      `Server "${name}": could not read the API key "${credentialId}" from the auth storage; check that it is readable.`,
      { server: name, cause, details: { credentialId } },
    );
  }
  if (key === undefined || key === "") {
    throw new McpRtError(
      "AUTH_REQUIRED",
      `Server "${name}" needs the API key "${credentialId}", which is not in the auth storage; ` +
        `store it under "${credentialId}" (authStorage.set("${credentialId}", key)) or remove "auth" from its config.`,
      { server: name, details: { credentialId } },
    );
  }
  return key;
}
