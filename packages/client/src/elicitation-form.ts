// The forms of elicitation: their types, defaults and checks. No SDK import: the light entry has them.

/** One field of a form elicitation: a flat primitive, as the spec allows. */
export interface MCPElicitationField {
  type?: "string" | "number" | "integer" | "boolean" | "array";
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: Array<{ const: unknown; title?: string }>;
  items?: { type?: string; enum?: unknown[]; anyOf?: Array<{ const: unknown; title?: string }> };
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  [key: string]: unknown;
}

/** The form a server asks the user to fill in (`requestedSchema`). */
export interface MCPElicitationSchema {
  type: "object";
  properties: Record<string, MCPElicitationField>;
  required?: string[];
  [key: string]: unknown;
}

/** The request a server's question belongs to: a tool call, a prompt, a resource read. */
export interface MCPElicitationCall {
  method: "tools/call" | "prompts/get" | "resources/read";
  /** The tool's or prompt's name as the server lists it, or the resource's URI. */
  name: string;
}

/** A server asks the user for input (`elicitation/create`). */
export interface MCPElicitationRequest {
  /** The config name of the server that asks. */
  server: string;
  /**
   * The request it asks during, when known: always for a 2026-07-28 server
   * (it asks inside that request's result); a 2025-11-25 server's question
   * names none.
   */
  call?: MCPElicitationCall;
  /** `form`: fill in `requestedSchema`; `url`: open `url` (a sign-in, a payment) out of band. */
  mode: "form" | "url";
  /** What the server says to the user. */
  message: string;
  /** The form (mode `form`). */
  requestedSchema?: MCPElicitationSchema;
  /** The page to open (mode `url`). */
  url?: string;
  /** The server's id of a URL elicitation. */
  elicitationId?: string;
}

/** The user's answer. */
export interface MCPElicitationResult {
  /** `accept`: submitted (with `content` for a form); `decline`: said no; `cancel`: dismissed. */
  action: "accept" | "decline" | "cancel";
  /** The form's values (mode `form`, `accept`); fields left out get the schema's defaults. */
  content?: Record<string, string | number | boolean | string[]>;
}

/** Answers elicitations; `signal` aborts when the server cancels the request or the connection closes. */
export type ElicitationHandler = (
  request: MCPElicitationRequest,
  signal: AbortSignal,
) => MCPElicitationResult | Promise<MCPElicitationResult>;

/**
 * `content` with the schema's defaults filled in for the fields it leaves
 * out (SEP-1034): what is sent to the server when a form is accepted.
 */
export function applyElicitationDefaults(
  schema: MCPElicitationSchema | undefined,
  content: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...content };
  for (const [name, field] of Object.entries(schema?.properties ?? {})) {
    if (filled[name] === undefined && field && typeof field === "object" && "default" in field) {
      filled[name] = field.default;
    }
  }
  return filled;
}

/**
 * What is wrong with a form's content for `schema`, or `undefined` when it
 * fits: each field's type, choices (`enum`, `oneOf`, `items`), bounds
 * (`minimum`/`maximum`, `minLength`/`maxLength`, `minItems`/`maxItems`) and
 * `format` (email, uri, date, date-time), and the required fields. The
 * spec's form schemas are flat, which is all this checks; it loads nothing
 * (no JSON Schema engine), so a UI can check each answer as it is typed.
 */
export function checkElicitationContent(
  schema: MCPElicitationSchema | undefined,
  content: Record<string, unknown>,
): string | undefined {
  if (!schema) return undefined;
  for (const name of schema.required ?? []) {
    if (content[name] === undefined) return `${name}: is required`;
  }
  for (const [name, value] of Object.entries(content)) {
    const field = schema.properties?.[name];
    if (!field || value === undefined) continue;
    const problem = checkField(field, value);
    if (problem) return `${name}: ${problem}`;
  }
  return undefined;
}

const FORMATS: Record<string, (text: string) => boolean> = {
  email: (text) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text),
  uri: (text) => URL.canParse(text),
  date: (text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)),
  "date-time": (text) => /^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text)),
};

/** The allowed values of a field or of its items, when it lists them. */
function allowed(source: {
  enum?: unknown[];
  oneOf?: Array<{ const: unknown }>;
  anyOf?: Array<{ const: unknown }>;
}): unknown[] | undefined {
  if (Array.isArray(source.enum)) return source.enum;
  const options = source.oneOf ?? source.anyOf;
  return Array.isArray(options) ? options.map((option) => option.const) : undefined;
}

function checkField(field: MCPElicitationField, value: unknown): string | undefined {
  switch (field.type) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be true or false";
    case "number":
    case "integer": {
      if (typeof value !== "number" || Number.isNaN(value)) return "must be a number";
      if (field.type === "integer" && !Number.isInteger(value)) return "must be a whole number";
      if (field.minimum !== undefined && value < field.minimum) return `must be >= ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be <= ${field.maximum}`;
      return undefined;
    }
    case "array": {
      if (!Array.isArray(value)) return "must be a list";
      if (field.minItems !== undefined && value.length < field.minItems)
        return `must have at least ${field.minItems} item(s)`;
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return `must have at most ${field.maxItems} item(s)`;
      const choices = field.items ? allowed(field.items) : undefined;
      const wrong = choices ? value.find((item) => !choices.includes(item)) : undefined;
      return wrong === undefined
        ? undefined
        : `${JSON.stringify(wrong)} is not one of ${choices?.map((c) => JSON.stringify(c)).join(", ")}`;
    }
    default: {
      if (typeof value !== "string") return "must be text";
      const choices = allowed(field);
      if (choices && !choices.includes(value))
        return `must be one of ${choices.map((c) => JSON.stringify(c)).join(", ")}`;
      if (field.minLength !== undefined && value.length < field.minLength)
        return `must be at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength)
        return `must be at most ${field.maxLength} characters`;
      const format = field.format === undefined ? undefined : FORMATS[field.format];
      if (format && !format(value)) return `must be a valid ${field.format}`;
      return undefined;
    }
  }
}
