import {
  type MCPPromptDefinition,
  MCPPromptDefinitionSchema,
  type MCPResourceDefinition,
  MCPResourceDefinitionSchema,
  type MCPResourceTemplateDefinition,
  MCPResourceTemplateDefinitionSchema,
  McpRtError,
} from "@mcp-rt/config";
import { z } from "@mcp-rt/config/util";
import { ProtocolErrorCode } from "@modelcontextprotocol/client";
import type { MCPServerConnection } from "./connection.js";
import { pageHint } from "./list-cache-hint.js";
import { MAX_TOOL_PAGES } from "./list-tools.js";
import { getConnectionInternals } from "./server-connection.js";
import { type ServerRequestOptions, sendRequest } from "./server-request.js";
import { DEFAULT_TOOL_LIMITS } from "./tool-limits.js";

const LOOSE_PAGE = z.looseObject({});

/** Options of `listResources`, `listResourceTemplates` and `listPrompts`. */
export interface ListContentOptions extends ServerRequestOptions {
  /** Entries kept per list, in the order listed; the rest are dropped (and no further page is read). @default 2000 */
  maxItems?: number;
  /** Characters of a description (and title) kept; a longer one is cut with a note. @default 4096 */
  maxDescriptionLength?: number;
  /** Told once per listing when entries were dropped, invalid or cut. */
  onLimit?: (message: string) => void;
}

interface ListKind<T> {
  method: "resources/list" | "resources/templates/list" | "prompts/list";
  key: "resources" | "resourceTemplates" | "prompts";
  capability: "resources" | "prompts";
  what: string;
  schema: z.ZodMiniType<T>;
  id(item: T): string;
}

const RESOURCES: ListKind<MCPResourceDefinition> = {
  method: "resources/list",
  key: "resources",
  capability: "resources",
  what: "resource",
  schema: MCPResourceDefinitionSchema,
  id: (item) => item.uri,
};
const TEMPLATES: ListKind<MCPResourceTemplateDefinition> = {
  method: "resources/templates/list",
  key: "resourceTemplates",
  capability: "resources",
  what: "resource template",
  schema: MCPResourceTemplateDefinitionSchema,
  id: (item) => item.uriTemplate,
};
const PROMPTS: ListKind<MCPPromptDefinition> = {
  method: "prompts/list",
  key: "prompts",
  capability: "prompts",
  what: "prompt",
  schema: MCPPromptDefinitionSchema,
  id: (item) => item.name,
};

/**
 * Lists every resource of a server (`resources/list`, every page). A server
 * without the `resources` capability, or that answers -32601 (method not
 * found), has none (`[]`). Invalid entries are skipped; a repeated cursor
 * or more than 1000 pages rejects with `PROTOCOL_ERROR`.
 */
export function listResources(
  connection: MCPServerConnection,
  options: ListContentOptions = {},
): Promise<MCPResourceDefinition[]> {
  return listAll(connection, RESOURCES, options);
}

/** Lists every resource template of a server (`resources/templates/list`), like {@link listResources}. */
export function listResourceTemplates(
  connection: MCPServerConnection,
  options: ListContentOptions = {},
): Promise<MCPResourceTemplateDefinition[]> {
  return listAll(connection, TEMPLATES, options);
}

/** Lists every prompt of a server (`prompts/list`), like {@link listResources}; needs the `prompts` capability. */
export function listPrompts(
  connection: MCPServerConnection,
  options: ListContentOptions = {},
): Promise<MCPPromptDefinition[]> {
  return listAll(connection, PROMPTS, options);
}

/** The McpError code of a failure, through the `McpRtError` it was wrapped in. */
function rpcCodeOf(error: unknown): unknown {
  return McpRtError.isInstance(error, "PROTOCOL_ERROR", "TOOL_NOT_FOUND", "INIT_FAILED")
    ? error.details?.rpcCode
    : undefined;
}

async function listAll<T extends { description?: string | undefined; title?: string | undefined }>(
  connection: MCPServerConnection,
  kind: ListKind<T>,
  options: ListContentOptions,
): Promise<T[]> {
  if (!connection.capabilities[kind.capability]) return [];
  const maxItems = options.maxItems ?? DEFAULT_TOOL_LIMITS.maxTools;
  const maxDescription = options.maxDescriptionLength ?? DEFAULT_TOOL_LIMITS.maxDescriptionLength;
  const started = Date.now();
  const items = new Map<string, T>();
  const seen = new Set<string>();
  let cursor: string | undefined;
  let invalid = 0;
  let cut = 0;
  let dropped = 0;
  for (let page = 1; ; page++) {
    let result: Record<string, unknown>;
    try {
      result = await sendRequest(
        connection,
        `${kind.method} request`,
        (client, request) =>
          client.request(
            { method: kind.method, params: cursor === undefined ? {} : { cursor } },
            // Loose on purpose: entries are checked one by one below, so one bad entry costs only itself.
            LOOSE_PAGE,
            request,
          ),
        {
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.timeout === undefined
            ? {}
            : { timeout: Math.max(1, options.timeout - (Date.now() - started)) }),
        },
      );
    } catch (error) {
      // A server that declares the capability but lacks the method has none, as the spec's peers expect.
      if (page === 1 && rpcCodeOf(error) === ProtocolErrorCode.MethodNotFound) return [];
      throw error;
    }
    // A private page makes everything cached beside it private (SEP-2549): the scope is the strictest seen.
    if (connection.era === "modern" && pageHint(result, 0).cacheScope === "private")
      getConnectionInternals(connection).contentScope = "private";
    else if (connection.era === "modern") getConnectionInternals(connection).contentScope ??= "public";
    const list = Array.isArray(result?.[kind.key]) ? (result[kind.key] as unknown[]) : [];
    for (const [index, raw] of list.entries()) {
      if (items.size >= maxItems) {
        dropped += list.length - index;
        break;
      }
      const parsed = kind.schema.safeParse(raw);
      if (!parsed.success) {
        invalid++;
        continue;
      }
      const item = parsed.data;
      if (items.has(kind.id(item))) continue;
      if (item.title !== undefined && item.title.length > maxDescription)
        item.title = item.title.slice(0, maxDescription);
      if (item.description !== undefined && item.description.length > maxDescription) {
        cut++;
        item.description = `${item.description.slice(0, maxDescription)} [cut by mcp-rt: ${item.description.length} characters]`;
      }
      items.set(kind.id(item), item);
    }
    const next = typeof result?.nextCursor === "string" ? result.nextCursor : undefined;
    if (next === undefined || items.size >= maxItems) {
      if (next !== undefined) dropped++;
      const server = `MCP server "${connection.name}"`;
      if (dropped > 0)
        options.onLimit?.(
          `${server} lists more than ${maxItems} ${kind.what}s; kept the first ${maxItems} (limit maxTools)`,
        );
      if (invalid > 0) options.onLimit?.(`${server} listed ${invalid} invalid ${kind.what}(s); skipped them`);
      if (cut > 0)
        options.onLimit?.(
          `${server} lists ${cut} ${kind.what} description(s) longer than ${maxDescription} characters; cut them (limit maxDescriptionLength)`,
        );
      return [...items.values()];
    }
    if (seen.has(next) || page >= MAX_TOOL_PAGES) {
      throw new McpRtError(
        "PROTOCOL_ERROR",
        `MCP server "${connection.name}" ${seen.has(next) ? `repeated the ${kind.method} cursor ${JSON.stringify(next)}` : `sent more than ${MAX_TOOL_PAGES} pages`} on page ${page}; stopped instead of looping`,
        { server: connection.name },
      );
    }
    seen.add(next);
    cursor = next;
  }
}
