import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { checkAgainstSchema } from "./schema-check.js";

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

/** A server asks the user for input (`elicitation/create`). */
export interface MCPElicitationRequest {
  /** The config name of the server that asks. */
  server: string;
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

/** What is wrong with a form's content for `schema`, or `undefined` when it fits. */
export function checkElicitationContent(
  schema: MCPElicitationSchema | undefined,
  content: Record<string, unknown>,
): string | undefined {
  if (!schema) return undefined;
  return checkAgainstSchema(schema, content);
}

/** The raw `elicitation/create` params as the SDK validated them. */
interface RawParams {
  mode?: "form" | "url";
  message: string;
  requestedSchema?: MCPElicitationSchema;
  url?: string;
  elicitationId?: string;
}

/**
 * Runs `handler` for one `elicitation/create` request of `server`: the
 * request names the server, the defaults are applied to accepted content,
 * and content that does not fit the requested schema is never sent (the
 * server gets an InvalidParams error saying why).
 */
export async function answerElicitation(
  server: string,
  params: RawParams,
  handler: ElicitationHandler,
  signal: AbortSignal,
): Promise<MCPElicitationResult> {
  const mode = params.mode ?? "form";
  const request: MCPElicitationRequest = { server, mode, message: params.message };
  if (params.requestedSchema) request.requestedSchema = params.requestedSchema;
  if (params.url !== undefined) request.url = params.url;
  if (params.elicitationId !== undefined) request.elicitationId = params.elicitationId;
  const answer = await handler(request, signal);
  const action = answer?.action;
  if (action !== "accept" && action !== "decline" && action !== "cancel") {
    throw new McpError(
      ErrorCode.InternalError,
      `the client's elicitation handler answered ${JSON.stringify(action)}`,
    );
  }
  if (action !== "accept" || mode === "url") return { action };
  const content = applyElicitationDefaults(params.requestedSchema, answer.content);
  const problem = checkElicitationContent(params.requestedSchema, content);
  if (problem) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `the user's answer does not fit the requested form: ${problem}`,
    );
  }
  return { action, content: content as NonNullable<MCPElicitationResult["content"]> };
}
