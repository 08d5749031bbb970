import type { ListContentOptions, MCPServerConnection } from "@mcp-rt/client";
import type {
  Logger,
  MCPPromptDefinition,
  MCPResourceDefinition,
  MCPResourceTemplateDefinition,
} from "@mcp-rt/config";
import { errorMessage } from "@mcp-rt/config/util";
import { client } from "../client-module.js";

/** A server's resource, as `getResources()` returns it: the server's definition and its config name. */
export interface MCPResource extends MCPResourceDefinition {
  /** The config name of the server that has it. */
  server: string;
}

/** A server's resource template (RFC 6570), as `getResourceTemplates()` returns it. */
export interface MCPResourceTemplate extends MCPResourceTemplateDefinition {
  server: string;
}

/** A server's prompt, as `getPrompts()` returns it. */
export interface MCPPrompt extends MCPPromptDefinition {
  server: string;
}

/** What a server offers besides tools. */
export interface ServerContent {
  resources: readonly MCPResourceDefinition[];
  resourceTemplates: readonly MCPResourceTemplateDefinition[];
  prompts: readonly MCPPromptDefinition[];
}

/** Which list a `list_changed` notification is about. */
export type ContentList = "resources" | "prompts";

/** A server with nothing besides tools. */
export const NO_CONTENT: ServerContent = Object.freeze({
  resources: [],
  resourceTemplates: [],
  prompts: [],
});

/** Some of a server's lists: one left out (or `undefined`, as a cache entry may hold it) stays as it was. */
export type GivenContent = { [K in keyof ServerContent]?: ServerContent[K] | undefined };

/** `before` with the lists `next` gives in place of its own, and which lists changed. */
export function mergeContent(
  before: ServerContent,
  next: GivenContent,
): { content: ServerContent; changed: ContentList[] } {
  const content: ServerContent = {
    resources: next.resources ?? before.resources,
    resourceTemplates: next.resourceTemplates ?? before.resourceTemplates,
    prompts: next.prompts ?? before.prompts,
  };
  const changed: ContentList[] = [];
  const differ = (a: readonly unknown[], b: readonly unknown[]): boolean =>
    a !== b && (a.length !== b.length || JSON.stringify(a) !== JSON.stringify(b));
  if (
    differ(before.resources, content.resources) ||
    differ(before.resourceTemplates, content.resourceTemplates)
  )
    changed.push("resources");
  if (differ(before.prompts, content.prompts)) changed.push("prompts");
  return { content, changed };
}

/** Characters of a server's `instructions` kept. */
export const MAX_INSTRUCTIONS_LENGTH = 2048;

/** A server's `instructions`, cut at {@link MAX_INSTRUCTIONS_LENGTH} characters with a note saying so. */
export function capInstructions(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  if (text.length <= MAX_INSTRUCTIONS_LENGTH) return text;
  return `${text.slice(0, MAX_INSTRUCTIONS_LENGTH)}\n[cut by mcp-rt: the server's instructions are ${text.length} characters; the first ${MAX_INSTRUCTIONS_LENGTH} kept]`;
}

/** Options of {@link listServerContent}. */
export interface ListServerContentOptions extends ListContentOptions {
  /** Where a list that failed is reported (the others are kept). */
  logger?: Logger | undefined;
  /**
   * Told of each list that failed instead of `logger`: an attempt keeps them
   * until it is committed, so that one that is given up says nothing.
   */
  onFailure?: ((message: string) => void) | undefined;
  /** Only these lists. @default both */
  only?: ContentList;
}

/**
 * Lists a server's resources and templates, and its prompts, in parallel.
 * A server without a capability (or that answers -32601) has none of it,
 * silently; a list that fails otherwise is logged once and left empty, so
 * that a server's tools never depend on its resources.
 */
export async function listServerContent(
  connection: MCPServerConnection,
  options: ListServerContentOptions,
): Promise<Partial<ServerContent>> {
  const { logger, only, onFailure, ...listOptions } = options;
  const failed = onFailure ?? ((message: string) => logger?.warn(message));
  const safely = async <T>(what: string, list: Promise<T[]>): Promise<T[]> => {
    try {
      return await list;
    } catch (error) {
      if (!options.signal?.aborted && !connection.closed) {
        failed(
          `MCP server "${connection.name}": listing its ${what} failed; it shows none: ${errorMessage(error)}`,
        );
      }
      return [];
    }
  };
  const content: Partial<Record<keyof ServerContent, unknown[]>> = {};
  const lists: Array<Promise<void>> = [];
  if (only !== "prompts") {
    lists.push(
      safely("resources", client().listResources(connection, listOptions)).then((items) => {
        content.resources = items;
      }),
      safely("resource templates", client().listResourceTemplates(connection, listOptions)).then((items) => {
        content.resourceTemplates = items;
      }),
    );
  }
  if (only !== "resources") {
    lists.push(
      safely("prompts", client().listPrompts(connection, listOptions)).then((items) => {
        content.prompts = items;
      }),
    );
  }
  await Promise.all(lists);
  return content as Partial<ServerContent>;
}

/** Every server's entries of one list, each with its server's name, in server order. */
export function collectContent<K extends keyof ServerContent>(
  records: ReadonlyArray<{ name: string; content: ServerContent }>,
  list: K,
): Array<ServerContent[K][number] & { server: string }> {
  const out: Array<ServerContent[K][number] & { server: string }> = [];
  for (const record of records) {
    for (const item of record.content[list]) out.push({ server: record.name, ...item });
  }
  return out;
}
