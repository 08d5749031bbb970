import {
  ENV_NAME,
  MCPHttpServerConfigSchema,
  type MCPServerConfig,
  MCPStdioServerConfigSchema,
  POISONING_POLICIES,
  PROTOCOL_SETTINGS,
  TOOL_CHANGES_POLICIES,
} from "./model/server-config.js";
import { redactUrl } from "./redact-text.js";
import { describeKind, describeValue, fieldKey, isPlainObject } from "./util/describe-value.js";
import { MAX_TIMER_MS } from "./util/timer-ms.js";

/** One thing wrong with a server config: the field (`""` for the entry itself) and what to change. */
export interface ServerConfigProblem {
  /** Path inside the entry, e.g. `timeout`, `env.PORT`, `args[2]`; `""` for the whole entry. */
  field: string;
  message: string;
}

// Node clamps a timer longer than this to 1 ms, which would fail every connection at once.
const TYPES = ["stdio", "http", "sse"] as const;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Checks one server config. Returns `[]` when it is valid; otherwise one
 * message per problem, each naming the field (`servers.<name>.<field>: …`) and
 * saying what to change. Fields that do not apply to the server's transport
 * (`headers` on a local server…) are ignored, as the clients themselves do.
 *
 * @example
 * ```ts
 * validateServerConfig("foo", { command: "npx", timeout: -5 });
 * // ["servers.foo.timeout: must be a positive whole number of milliseconds, got -5"]
 * ```
 */
export function validateServerConfig(name: string, config: unknown): string[] {
  return findServerConfigProblems(name, config).map((problem) => formatProblem(name, problem));
}

/** `servers.<name>.<field>: <message>`, with a hint at the provider's own field name when it differs. */
export function formatProblem(
  name: string,
  problem: ServerConfigProblem,
  fieldNames: Record<string, string> = {},
): string {
  const where = `servers${fieldKey(name)}${problem.field === "" || problem.field.startsWith("[") ? "" : "."}${problem.field}`;
  const top = /^[A-Za-z]+/.exec(problem.field)?.[0];
  const written = top === undefined ? undefined : fieldNames[top];
  return `${where}: ${problem.message}${written === undefined ? "" : ` (written as ${written})`}`;
}

/** The problems of one server config, as {@link ServerConfigProblem}s. */
export function findServerConfigProblems(name: string, config: unknown): ServerConfigProblem[] {
  const problems: ServerConfigProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  if (typeof name !== "string" || name.trim() === "") {
    add("", "a server needs a non-empty name; rename the entry");
  }
  if (!isPlainObject(config)) {
    add(
      "",
      `must be an object with "command" (a local server) or "url" (a remote server), got ${describeValue(config)}`,
    );
    return problems;
  }

  const type = config.type;
  const knownType =
    type === undefined || (typeof type === "string" && (TYPES as readonly string[]).includes(type));
  if (!knownType) {
    add(
      "type",
      `unknown type ${describeValue(type)}; use "stdio" (a local command), "http" (Streamable HTTP) or "sse"`,
    );
  }
  const hasCommand = config.command !== undefined;
  const hasUrl = config.url !== undefined;
  if (hasCommand && hasUrl) {
    add(
      "",
      'has both "command" and "url"; keep "command" to start a local server, or "url" to reach a remote one',
    );
  } else if (!hasCommand && !hasUrl) {
    if (type === "stdio")
      add("command", 'is required for a stdio server; add the program to run, e.g. "npx"');
    else if (type === "http" || type === "sse")
      add("url", `is required for an ${type} server; add the server's URL`);
    else add("", 'needs "command" (to start a local server) or "url" (to reach a remote one)');
  } else if (type === "stdio" && hasUrl) {
    add(
      "command",
      'is required when type is "stdio"; add the program to run, or set type to "http" or "sse"',
    );
  } else if ((type === "http" || type === "sse") && hasCommand) {
    add("url", `is required when type is "${type}"; add the server's URL, or set type to "stdio"`);
  }

  if (hasCommand && !hasUrl) {
    checkCommand(config.command, add);
    checkStringArray(config.args, "args", '["-y", "some-mcp-server"]', add, { conceal: true });
    checkStringRecord(config.env, "env", add);
    checkStringArray(config.envPassthrough, "envPassthrough", '["GITHUB_TOKEN"]', add);
    if (Array.isArray(config.envPassthrough)) {
      config.envPassthrough.forEach((name, i) => {
        if (typeof name === "string" && !ENV_NAME.test(name)) {
          add(
            `envPassthrough[${i}]`,
            `must be an environment variable name (letters, digits, _), got ${describeValue(name)}`,
          );
        }
      });
    }
    if (config.cwd !== undefined && (typeof config.cwd !== "string" || config.cwd === "")) {
      add("cwd", `must be a folder path, got ${describeValue(config.cwd)}`);
    }
  }
  if (hasUrl && !hasCommand) {
    checkUrl(config.url, add);
    checkStringRecord(config.headers, "headers", add);
    if (isPlainObject(config.headers)) {
      for (const [header, value] of Object.entries(config.headers)) {
        if (!HEADER_NAME.test(header)) {
          add(
            `headers${fieldKey(header)}`,
            "is not a valid HTTP header name; use letters, digits and dashes",
          );
        } else if (typeof value === "string" && /[\r\n\0]/.test(value)) {
          add(`headers${fieldKey(header)}`, "must not contain line breaks");
        }
      }
    }
  }

  for (const field of ["enabled", "alwaysLoad"] as const) {
    if (config[field] !== undefined && typeof config[field] !== "boolean") {
      add(field, `must be true or false, got ${describeValue(config[field])}`);
    }
  }
  for (const field of ["timeout", "toolTimeout"] as const) checkTimeout(config[field], field, add);
  checkStringArray(config.includeTools, "includeTools", '["read_file"]', add);
  checkStringArray(config.excludeTools, "excludeTools", '["delete_file"]', add);
  if (config.auth !== undefined) checkAuth(config.auth, add);
  if (config.protocol !== undefined && !(PROTOCOL_SETTINGS as readonly unknown[]).includes(config.protocol)) {
    add(
      "protocol",
      `must be "auto" (ask the server), "legacy" (2025-11-25 and before) or "2026-07-28", got ${describeValue(config.protocol)}`,
    );
  }

  if (
    config.toolChanges !== undefined &&
    !(TOOL_CHANGES_POLICIES as readonly unknown[]).includes(config.toolChanges)
  ) {
    add(
      "toolChanges",
      `must be "ask" (hold changed tools and ask), "hold" (hold them until reviewed) or "allow" (expose and record them), got ${describeValue(config.toolChanges)}`,
    );
  }
  if (
    config.poisoning !== undefined &&
    !(POISONING_POLICIES as readonly unknown[]).includes(config.poisoning)
  ) {
    add(
      "poisoning",
      `must be "hold" (keep a tool with a strong sign of poisoning from the model) or "warn" (only report it), got ${describeValue(config.poisoning)}`,
    );
  }

  if (problems.length === 0) problems.push(...schemaProblems(config));
  return problems;
}

/**
 * The config in mcp-rt's shape, without fields that do not apply to its
 * transport, or `undefined` when it is not valid.
 */
export function normalizeServerConfig(config: unknown): MCPServerConfig | undefined {
  if (!isPlainObject(config)) return undefined;
  const schema = config.command !== undefined ? MCPStdioServerConfigSchema : MCPHttpServerConfigSchema;
  // Without zod's compiled fast path, as in `schemaProblems`: a start normalizes each config once.
  const parsed = schema.safeParse(config, { jitless: true });
  return parsed.success ? parsed.data : undefined;
}

type Add = (field: string, message: string) => void;

function checkCommand(command: unknown, add: Add): void {
  if (typeof command !== "string" || command.trim() === "") {
    add(
      "command",
      `must be the program to run as a non-empty string, e.g. "npx", got ${describeValue(command)}`,
    );
  }
}

// Values of `env`, `headers` and `args` may be secrets: messages about them
// say what kind of value was found, never the value.
function checkStringArray(
  value: unknown,
  field: string,
  example: string,
  add: Add,
  { conceal = false }: { conceal?: boolean } = {},
): void {
  if (value === undefined) return;
  const describe = conceal ? describeKind : describeValue;
  if (!Array.isArray(value)) {
    add(field, `must be an array of strings, e.g. ${example}, got ${describe(value)}`);
    return;
  }
  value.forEach((item, i) => {
    if (typeof item !== "string") add(`${field}[${i}]`, `must be a string, got ${describe(item)}; quote it`);
  });
}

function checkStringRecord(value: unknown, field: "env" | "headers", add: Add): void {
  if (value === undefined) return;
  if (!isPlainObject(value)) {
    add(field, `must be an object of string values, e.g. { "NAME": "value" }, got ${describeKind(value)}`);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== "string") {
      const scalar = typeof item === "number" || typeof item === "boolean";
      add(
        `${field}${fieldKey(key)}`,
        `must be a string, got ${describeKind(item)}; ${scalar ? "put the value in double quotes" : "write it as one string"}`,
      );
    }
  }
}

function checkUrl(url: unknown, add: Add): void {
  let parsed: URL | undefined;
  try {
    parsed = typeof url === "string" ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    add(
      "url",
      `must be an http:// or https:// URL, e.g. "https://example.com/mcp", got ${describeValue(typeof url === "string" ? redactUrl(url) : url)}`,
    );
  }
}

function checkTimeout(value: unknown, field: string, add: Add): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    add(field, `must be a positive whole number of milliseconds, got ${describeValue(value)}`);
  } else if (value > MAX_TIMER_MS) {
    add(field, `must be at most ${MAX_TIMER_MS} milliseconds (about 24 days), got ${value}`);
  }
}

function checkAuth(auth: unknown, add: Add): void {
  if (!isPlainObject(auth)) {
    add("auth", `must be an object such as { "type": "oauth" }, got ${describeValue(auth)}`);
    return;
  }
  if (auth.type === "apikey") {
    if (typeof auth.credentialId !== "string" || auth.credentialId === "") {
      add(
        "auth.credentialId",
        `must name the stored API key as a non-empty string, got ${describeValue(auth.credentialId)}`,
      );
    }
  } else if (auth.type === "oauth") {
    for (const key of ["scope", "clientId", "clientSecret", "clientMetadataUrl"] as const) {
      if (auth[key] !== undefined && typeof auth[key] !== "string") {
        // The secret itself is never quoted back.
        const got = key === "clientSecret" ? describeKind(auth[key]) : describeValue(auth[key]);
        add(`auth.${key}`, `must be a string, got ${got}`);
      }
    }
    if (auth.clientSecret !== undefined && auth.clientId === undefined) {
      add("auth.clientSecret", "needs auth.clientId: a client secret belongs to a pre-registered client id");
    }
    if (typeof auth.clientMetadataUrl === "string" && !isMetadataDocumentUrl(auth.clientMetadataUrl)) {
      add(
        "auth.clientMetadataUrl",
        `must be an https:// URL with a path (the client's metadata document), got ${describeValue(redactUrl(auth.clientMetadataUrl))}`,
      );
    }
    const port = auth.callbackPort;
    if (
      port !== undefined &&
      (typeof port !== "number" || !Number.isInteger(port) || port < 0 || port > 65535)
    ) {
      add("auth.callbackPort", `must be a port number from 0 to 65535, got ${describeValue(port)}`);
    }
  } else {
    add("auth.type", `must be "oauth" or "apikey", got ${describeValue(auth.type)}`);
  }
}

/** True for an `https:` URL with a path, as a client id metadata document URL must be. */
function isMetadataDocumentUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.pathname !== "/";
  } catch {
    return false;
  }
}

// A safety net: whatever the checks above let through must also satisfy the
// schema the rest of mcp-rt relies on.
function schemaProblems(config: Record<string, unknown>): ServerConfigProblem[] {
  const schema = config.command !== undefined ? MCPStdioServerConfigSchema : MCPHttpServerConfigSchema;
  // Without zod's compiled fast path: a start checks each config once, and compiling it cost more
  // than the few parses it would speed up (the config schema is the first one a start parses).
  const parsed = schema.safeParse(config, { jitless: true });
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => ({
    field: issue.path
      .map((part, i) =>
        typeof part === "number" ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`,
      )
      .join(""),
    message: issue.message,
  }));
}
