import { errorMessage } from "@mcp-rt/config/util";
import type { CustomTool, Logger, MCPManager, ToolResult } from "@mcp-rt/manager";
import { filterResources, formatResources } from "./server-content-text.js";
import type { ResultKeeper } from "./session-mcp-tool.js";
import type { ToolRegistry } from "./tool-registry.js";

/** The built-in tool that lists the servers' resources for the model. */
export const LIST_RESOURCES_NAME = "mcp_list_resources";
/** The built-in tool that reads one resource for the model. */
export const READ_RESOURCE_NAME = "mcp_read_resource";

const LIST_PARAMETERS = {
  type: "object",
  properties: {
    server: { type: "string", description: "Only this MCP server's resources." },
    query: { type: "string", description: "Only resources whose URI, name or description contains this." },
  },
  additionalProperties: false,
} as const;

const READ_PARAMETERS = {
  type: "object",
  properties: {
    server: { type: "string", description: "The MCP server that has the resource." },
    uri: { type: "string", description: "The resource's URI, as listed, or made from a template." },
  },
  required: ["server", "uri"],
  additionalProperties: false,
} as const;

function textResult(name: string, text: string, isError = false): ToolResult {
  return {
    content: [{ type: "text", text }],
    ...(isError ? { isError: true } : {}),
    details: { serverName: "mcp-rt", mcpToolName: name, isError, rawContent: undefined },
  };
}

/**
 * The two built-in tools that give a model the servers' resources,
 * `mcp_list_resources { server?, query? }` and `mcp_read_resource { server, uri }`.
 * They are registered (and active) while some server has resources or
 * templates, and removed when none has any; a read goes through the same
 * budget as a tool result (`MCPManager.readResourceResult`), and a long text
 * is kept in a file like a tool result (`results`, the session's `resultSpill`).
 */
export class ResourceTools {
  readonly tools: readonly CustomTool[];
  readonly #registry: ToolRegistry;
  readonly #manager: MCPManager;
  readonly #logger: Logger;
  #registered = false;

  constructor(options: {
    registry: ToolRegistry;
    manager: MCPManager;
    logger: Logger;
    results?: ResultKeeper;
  }) {
    this.#registry = options.registry;
    this.#manager = options.manager;
    this.#logger = options.logger;
    const { manager, results } = options;
    this.tools = [
      {
        name: LIST_RESOURCES_NAME,
        label: `mcp-rt/${LIST_RESOURCES_NAME}`,
        description:
          "Lists the resources (files, documents, records) that the connected MCP servers offer, and their URI templates. Read one with mcp_read_resource.",
        parameters: LIST_PARAMETERS,
        execute: async (_id, params) => {
          const { server, query } = (params ?? {}) as { server?: unknown; query?: unknown };
          const filter = {
            server: typeof server === "string" && server !== "" ? server : undefined,
            query: typeof query === "string" ? query : undefined,
          };
          const listing = { resources: manager.getResources(), templates: manager.getResourceTemplates() };
          const found = filterResources(listing, filter);
          return textResult(LIST_RESOURCES_NAME, formatResources(found, filter));
        },
      },
      {
        name: READ_RESOURCE_NAME,
        label: `mcp-rt/${READ_RESOURCE_NAME}`,
        description:
          "Reads one resource of an MCP server by its URI (from mcp_list_resources, or a template filled in). Text comes back as is; binary content as a note with its size and type.",
        parameters: READ_PARAMETERS,
        execute: async (_id, params, signal) => {
          const { server, uri } = (params ?? {}) as { server?: unknown; uri?: unknown };
          if (typeof server !== "string" || typeof uri !== "string" || server === "" || uri === "") {
            return textResult(READ_RESOURCE_NAME, 'Give "server" and "uri" (see mcp_list_resources).', true);
          }
          const read = await manager.readResourceResult({ server, uri, signal });
          return results ? results.keep(read) : read;
        },
      },
    ];
  }

  /** Registers the tools when some server has resources, removes them when none has. */
  sync(): void {
    const wanted = this.#manager.getResources().length + this.#manager.getResourceTemplates().length > 0;
    if (wanted === this.#registered) return;
    if (!wanted) {
      this.remove();
      return;
    }
    try {
      for (const tool of this.tools) this.#registry.add(tool);
      this.#registry.setActive([...this.#registry.active(), ...this.tools.map((tool) => tool.name)]);
      this.#registered = true;
    } catch (error) {
      for (const tool of this.tools) this.#registry.remove(tool);
      this.#logger.warn(`The MCP resource tools were not registered: ${errorMessage(error)}`);
    }
  }

  /** Removes the tools (the session is disposed, or no server has resources). */
  remove(): void {
    for (const tool of this.tools) this.#registry.remove(tool);
    this.#registered = false;
  }
}
