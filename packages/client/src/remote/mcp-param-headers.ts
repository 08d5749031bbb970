/**
 * SEP-2243 (2026-07-28 Streamable HTTP, "Schema Extension"): a tool's input
 * schema may mark a property with `x-mcp-header: "Name"`, and a client then
 * mirrors that argument as an `Mcp-Param-Name` header on each `tools/call`,
 * so that gateways can route without reading the body. The SDK does this only
 * in its own `callTool` and keeps its helpers private; mcp-rt sends
 * `tools/call` itself (call-tool.ts), so the rules are kept here, as the SDK
 * 2.4.0 applies them.
 */

/** One marked property: where it sits in the arguments, and its header name. */
export interface ParamHeaderDeclaration {
  path: readonly string[];
  headerName: string;
}

/** What a tool's input schema declares: its headers, or why the tool is invalid. */
export type ParamHeaderScan =
  | { valid: true; declarations: ParamHeaderDeclaration[] }
  | { valid: false; reason: string };

const X_MCP_HEADER = "x-mcp-header";
const HEADER_PREFIX = "Mcp-Param-";
/** RFC 9110 `token`: no spaces, control characters or delimiters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** `number` is refused on purpose by the spec (its text form is ambiguous). */
const PRIMITIVE_TYPES = new Set(["string", "integer", "boolean"]);
/** Keywords whose subschemas a chain of `properties` never passes: a mark under them is invalid. */
const UNREACHABLE = [
  "items",
  "prefixItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "patternProperties",
  "dependentSchemas",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions",
] as const;
const NAMED_SUBSCHEMAS = new Set(["patternProperties", "dependentSchemas", "$defs", "definitions"]);
const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";

/**
 * The `x-mcp-header` marks of an input schema. A tool whose marks break a
 * rule (not reachable through `properties` alone, empty or not a token, on a
 * property that is not a string, integer or boolean, a name used twice in any
 * case) is invalid: the spec says a client must not call it.
 */
export function scanParamHeaders(inputSchema: unknown): ParamHeaderScan {
  const declarations: ParamHeaderDeclaration[] = [];
  const seen = new Map<string, string>();
  // An explicit stack: a schema may be deep, and this must never run out of call stack.
  const stack: { node: unknown; path: string[]; reachable: boolean }[] = [
    { node: inputSchema, path: [], reachable: true },
  ];
  while (stack.length > 0) {
    const { node, path, reachable } = stack.pop() as (typeof stack)[number];
    if (node === null || typeof node !== "object") continue;
    const schema = node as Record<string, unknown>;
    if (X_MCP_HEADER in schema) {
      const where = path.length === 0 ? "<root>" : path.join(".");
      const name = schema[X_MCP_HEADER];
      if (!reachable || path.length === 0) {
        return {
          valid: false,
          reason: `${where}: ${X_MCP_HEADER} is only allowed on properties reached through "properties"`,
        };
      }
      if (typeof name !== "string" || !TOKEN.test(name)) {
        return { valid: false, reason: `${where}: ${X_MCP_HEADER} must be a non-empty HTTP token` };
      }
      const type = typeof schema.type === "string" ? schema.type : undefined;
      if (type === undefined || !PRIMITIVE_TYPES.has(type)) {
        return {
          valid: false,
          reason: `${where}: ${X_MCP_HEADER} is only allowed on string, integer or boolean properties`,
        };
      }
      const other = seen.get(name.toLowerCase());
      if (other !== undefined)
        return { valid: false, reason: `${X_MCP_HEADER} "${name}" is declared twice (also as "${other}")` };
      seen.set(name.toLowerCase(), name);
      declarations.push({ path, headerName: name });
    }
    const properties = schema.properties;
    if (properties !== null && typeof properties === "object") {
      for (const [key, child] of Object.entries(properties))
        stack.push({ node: child, path: [...path, key], reachable });
    }
    for (const keyword of UNREACHABLE) {
      const sub = schema[keyword];
      if (sub === undefined || sub === null || typeof sub !== "object") continue;
      const branches = Array.isArray(sub) ? sub : NAMED_SUBSCHEMAS.has(keyword) ? Object.values(sub) : [sub];
      for (const branch of branches)
        stack.push({ node: branch, path: [...path, `<${keyword}>`], reachable: false });
    }
  }
  return { valid: true, declarations };
}

/** What a tool with invalid marks is told as: the server, the tool, the rule it breaks, and that it is left out. */
export function invalidHeaderText(server: string, tool: string, reason: string): string {
  return `MCP server "${server}" lists tool "${tool}" with an invalid x-mcp-header (${reason}); it is left out and never called, as the 2026-07-28 spec says. The server's input schema must be fixed`;
}

/**
 * The `Mcp-Param-*` headers of one call: each marked argument that is a
 * string, a finite number or a boolean, as text; absent and `null` ones are
 * left out. A value that is not plain visible ASCII (or has edge spaces, or
 * is empty) is sent as `=?base64?<UTF-8 in base64>?=`.
 */
export function paramHeaders(
  declarations: readonly ParamHeaderDeclaration[],
  args: unknown,
): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  for (const { path, headerName } of declarations) {
    let value: unknown = args;
    for (const key of path)
      value =
        value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    const text = primitiveText(value);
    if (text === undefined) continue;
    headers ??= {};
    headers[`${HEADER_PREFIX}${headerName}`] = needsBase64(text)
      ? `${SENTINEL_START}${Buffer.from(text, "utf8").toString("base64")}${SENTINEL_END}`
      : text;
  }
  return headers;
}

function primitiveText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) return undefined;
  return String(value);
}

function needsBase64(text: string): boolean {
  if (text.length === 0 || text !== text.trim()) return true;
  if (text.startsWith(SENTINEL_START) && text.endsWith(SENTINEL_END)) return true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 9 && (code < 32 || code > 126)) return true;
  }
  return false;
}
