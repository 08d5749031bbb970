import type { MCPCommand, MCPCommandCall } from "../mcp-command.js";
import { parseResourcesArgs } from "../mcp-command-args.js";
import { failure, type MCPCommandResult, ok } from "../mcp-command-result.js";
import { filterResources, formatResources } from "../server-content-text.js";

/** `/mcp resources [server]`: every server's resources and templates (or one server's). */
export const resourcesCommand: MCPCommand<string | undefined> = {
  name: "resources",
  usage: "/mcp resources [server]",
  description: "the servers' resources and resource templates (or one server's)",
  parse: parseResourcesArgs,
  run: resources,
};

function resources({ ctx, input: server }: MCPCommandCall<string | undefined>): MCPCommandResult {
  if (server !== undefined && !ctx.manager.getServerStates().some((state) => state.name === server)) {
    return failure({
      code: "UNKNOWN_SERVER",
      message: `No MCP server "${server}" in this session; see /mcp list.`,
    });
  }
  const listing = { resources: ctx.manager.getResources(), templates: ctx.manager.getResourceTemplates() };
  const found = filterResources(listing, { server });
  return ok(formatResources(found, { server }), found);
}
