import { type MCPToolDefinition, MCPToolDefinitionSchema, McpRtError } from "@mcp-rt/config";
import { z } from "@mcp-rt/config/util";
import type { MCPServerConnection } from "./connection.js";
import { rpcCode } from "./error-text.js";
import { joinHints, type MCPListCacheHint, pageHint } from "./list-cache-hint.js";
import {
  invalidHeaderText,
  type ParamHeaderDeclaration,
  scanParamHeaders,
} from "./remote/mcp-param-headers.js";
import { openRequest } from "./server-request.js";
import { toToolDefinition } from "./tool-definition.js";
import { resolveToolLimits, ToolLimiter } from "./tool-limiter.js";
import type { ToolLimitBreach, ToolLimits } from "./tool-limits.js";

// The page's frame only: each tool is checked on its own below (the SDK's schema for the whole
// page recurses through every input schema, and a hostile one runs it out of stack).
const PAGE = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.optional(z.string()),
  ttlMs: z.optional(z.unknown()),
  cacheScope: z.optional(z.unknown()),
});

/** JSON-RPC "Invalid params": what a server answers for a cursor it no longer knows. */
const INVALID_PARAMS = -32602;

/** Pages after which `listTools` gives up: a server that never stops paging is broken. */
export const MAX_TOOL_PAGES = 1000;

/** Options of {@link listTools}. */
export interface ListToolsOptions {
  /** Aborts the listing; the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Limit for all pages together, in ms. @default config.timeout ?? 30000 */
  timeout?: number;
  /**
   * How much of the same budget the connect already took, in ms, when
   * `timeout` is what it left: a timeout then says so, instead of quoting a
   * rest of a few ms as if it were the limit.
   */
  connectMs?: number;
  /** How many tools, how long a name or description, how deep a schema the list may hold. @default DEFAULT_TOOL_LIMITS */
  limits?: ToolLimits;
  /** Told of each kind of limit breach once per listing, after the last page. */
  onLimit?: (breach: ToolLimitBreach) => void;
  /**
   * Told of each tool left out because its `x-mcp-header` marks are invalid
   * (modern Streamable HTTP only: the spec says such a tool must not be called).
   */
  onToolDropped?: (notice: ToolDropNotice) => void;
}

/** A tool `listTools` left out, and why. */
export interface ToolDropNotice {
  /** The tool's name as listed. */
  tool: string;
  /** What happened, naming the server, the tool and the rule it breaks. */
  message: string;
}

/**
 * Lists every tool of a server, following `nextCursor` to the last page. A
 * server without the `tools` capability has none (`[]`). A repeated cursor or
 * more than 1000 pages rejects with `PROTOCOL_ERROR` instead of looping.
 * Definitions are normalised to {@link MCPToolDefinition} (unknown fields
 * dropped); a name listed twice keeps its first definition. `limits` bound
 * what a hostile server can make the agent hold: tools past `maxTools` are
 * dropped and no further page is read, a tool with a longer name than
 * `maxToolNameLength` is dropped, descriptions are cut at
 * `maxDescriptionLength` with a note, and an input schema past
 * `maxSchemaDepth` or `maxSchemaSize` is replaced by an empty object schema
 * (measured without recursion, so no schema is too deep to check). Each kind
 * of breach reaches `onLimit` once. A cursor the server refuses with
 * "Invalid params" drops the pages so far and lists once more from the
 * first page (SEP-2549: a list is cached whole). The caching hints of the
 * pages (`ttlMs`, `cacheScope`) end up, joined, in `connection.toolsCacheHint`.
 * On a 2026-07-28 Streamable HTTP connection a tool with invalid
 * `x-mcp-header` marks is left out and told to `onToolDropped`.
 */
export async function listTools(
  connection: MCPServerConnection,
  options: ListToolsOptions = {},
): Promise<MCPToolDefinition[]> {
  const scope = openRequest(connection, "tools/list request", options);
  const { internals } = scope;
  if (!connection.capabilities.tools) return [];

  const limits = resolveToolLimits(options.limits);
  let limiter = new ToolLimiter(connection.name, limits);
  const tools = new Map<string, MCPToolDefinition>();
  const dropped = (tool: string, reason: string): void => {
    try {
      options.onToolDropped?.({
        tool,
        message: invalidHeaderText(connection.name, tool, reason),
      });
    } catch {
      // A throwing listener must not cost the other tools.
    }
  };
  // SEP-2243 headers exist only on a modern Streamable HTTP connection.
  const headersToo = connection.era === "modern" && connection.transport === "http";
  const declared = new Map<string, readonly ParamHeaderDeclaration[]>();
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  let hint: MCPListCacheHint | undefined;
  // A cursor the server no longer takes makes the pages so far worthless: start over once, from the first.
  let restarted = false;

  for (let page = 1; ; page++) {
    let result: z.infer<typeof PAGE>;
    try {
      // One page per request, never the SDK's `listTools()`: without a cursor it walks every page
      // itself (past our page limit and cursor check) and may answer from its response cache.
      result = await internals.client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        PAGE,
        { signal: scope.signal, timeout: scope.remainingMs() },
      );
    } catch (error) {
      if (cursor !== undefined && !restarted && rpcCode(error) === INVALID_PARAMS) {
        restarted = true;
        tools.clear();
        declared.clear();
        seenCursors.clear();
        limiter = new ToolLimiter(connection.name, limits);
        cursor = undefined;
        hint = undefined;
        page = 0;
        continue;
      }
      throw scope.fail(error);
    }
    const keep = (definition: MCPToolDefinition): void => {
      if (tools.has(definition.name)) return;
      const limited = limiter.apply(definition);
      if (limited) tools.set(limited.name, limited);
    };
    for (const [index, tool] of result.tools.entries()) {
      if (limiter.full(tools.size)) {
        limiter.skipped(result.tools.length - index);
        break;
      }
      if (headersToo && !declareHeaders(tool, declared, (name, reason) => dropped(name, reason))) continue;
      const fast = toToolDefinition(tool);
      if (fast) {
        keep(fast);
        continue;
      }
      // Only a tool the quick check refuses goes through zod, for its precise message.
      const parsed = MCPToolDefinitionSchema.safeParse(tool);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const path = ["tools", index, ...(issue?.path ?? [])].join(".");
        throw new McpRtError(
          "PROTOCOL_ERROR",
          `MCP server "${connection.name}" listed an invalid tool on page ${page}: ${path}: ${issue?.message}`,
          { server: connection.name },
        );
      }
      keep(parsed.data);
    }
    // Caching hints are a 2026-07-28 surface: a 2025 list has none (and is not private by default).
    if (connection.era === "modern") hint = joinHints(hint, pageHint(result, Date.now()));
    const next = result.nextCursor;
    if (next !== undefined && limiter.full(tools.size)) limiter.skipped(1);
    if (next === undefined || limiter.full(tools.size)) {
      for (const breach of limiter.breaches()) {
        try {
          options.onLimit?.(breach);
        } catch {
          // A throwing listener must not cost the tools.
        }
      }
      if (headersToo) {
        internals.paramHeaders.clear();
        for (const [name, declarations] of declared) {
          if (tools.has(name)) internals.paramHeaders.set(name, declarations);
        }
      }
      internals.toolsHint = hint;
      return [...tools.values()];
    }
    if (seenCursors.has(next)) {
      throw new McpRtError(
        "PROTOCOL_ERROR",
        `MCP server "${connection.name}" repeated the tools/list cursor ${JSON.stringify(next)} on page ${page}; stopped instead of looping`,
        { server: connection.name },
      );
    }
    if (page >= MAX_TOOL_PAGES) {
      throw new McpRtError(
        "PROTOCOL_ERROR",
        `MCP server "${connection.name}" sent more than ${MAX_TOOL_PAGES} pages of tools; stopped instead of paging forever`,
        { server: connection.name },
      );
    }
    seenCursors.add(next);
    cursor = next;
  }
}

/**
 * Records the `x-mcp-header` marks of a listed tool; false (and `dropped`
 * told why) for a tool whose marks are invalid, which the spec says a client
 * must leave out.
 */
function declareHeaders(
  tool: unknown,
  declared: Map<string, readonly ParamHeaderDeclaration[]>,
  dropped: (name: string, reason: string) => void,
): boolean {
  const { name, inputSchema } = (tool ?? {}) as { name?: unknown; inputSchema?: unknown };
  const scan = scanParamHeaders(inputSchema);
  if (!scan.valid) {
    dropped(typeof name === "string" ? name : "(unnamed)", scan.reason);
    return false;
  }
  if (typeof name === "string" && scan.declarations.length > 0 && !declared.has(name)) {
    declared.set(name, scan.declarations);
  }
  return true;
}
