import type { MCPPrompt, MCPResource, MCPResourceTemplate } from "@mcp-rt/manager";

/** Entries a listing shows at most: the rest are counted, to be narrowed with a query or a server. */
export const MAX_LISTED = 100;

/** Characters of a description a listing line keeps. */
const MAX_LINE_DESCRIPTION = 200;

function short(text: string | undefined): string {
  if (!text) return "";
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_LINE_DESCRIPTION ? `${line.slice(0, MAX_LINE_DESCRIPTION - 1)}…` : line;
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** What a listing of resources shows: which, narrowed how. */
export interface ResourceFilter {
  server?: string | undefined;
  query?: string | undefined;
}

/** Resources and resource templates, as the manager lists them. */
export interface ResourceListing {
  resources: readonly MCPResource[];
  templates: readonly MCPResourceTemplate[];
}

/** The resources and templates that pass `filter` (server exact, query a case-insensitive substring of any field). */
export function filterResources(
  { resources, templates }: ResourceListing,
  filter: ResourceFilter,
): { resources: MCPResource[]; templates: MCPResourceTemplate[] } {
  const query = filter.query?.trim().toLowerCase();
  const passes = (
    entry: { server: string; name: string; title?: string | undefined; description?: string | undefined },
    uri: string,
  ) =>
    (filter.server === undefined || entry.server === filter.server) &&
    (!query ||
      [uri, entry.name, entry.title, entry.description].some((field) =>
        field?.toLowerCase().includes(query),
      ));
  return {
    resources: resources.filter((resource) => passes(resource, resource.uri)),
    templates: templates.filter((template) => passes(template, template.uriTemplate)),
  };
}

/** One line per resource and template, at most {@link MAX_LISTED} in all, for a model or a terminal. */
export function formatResources(
  { resources, templates }: ResourceListing,
  filter: ResourceFilter = {},
): string {
  const scope = [
    filter.server === undefined ? "" : ` of server "${filter.server}"`,
    filter.query ? ` matching "${filter.query}"` : "",
  ].join("");
  if (resources.length + templates.length === 0) return `No MCP resources${scope}.`;
  const lines: string[] = [];
  const shown = resources.slice(0, MAX_LISTED);
  if (shown.length > 0) lines.push(`Resources${scope} (read one with its server and URI):`);
  for (const resource of shown) {
    const facts = [resource.mimeType, resource.size === undefined ? undefined : sizeText(resource.size)]
      .filter(Boolean)
      .join(", ");
    const label = resource.title ?? resource.name;
    const description = short(resource.description);
    lines.push(
      `- ${resource.server} ${resource.uri}${label ? ` — ${label}` : ""}${facts ? ` (${facts})` : ""}${description ? `: ${description}` : ""}`,
    );
  }
  const room = Math.max(0, MAX_LISTED - shown.length);
  const shownTemplates = templates.slice(0, room);
  if (shownTemplates.length > 0)
    lines.push(`Resource templates${scope} (fill in the {placeholders} to make a URI to read):`);
  for (const template of shownTemplates) {
    const description = short(template.description);
    lines.push(
      `- ${template.server} ${template.uriTemplate} — ${template.title ?? template.name}${description ? `: ${description}` : ""}`,
    );
  }
  const left = resources.length + templates.length - shown.length - shownTemplates.length;
  if (left > 0) lines.push(`… and ${left} more; narrow the list with a server or a query.`);
  return lines.join("\n");
}

/** One line per prompt, with its arguments (`*` marks a required one). */
export function formatPrompts(prompts: readonly MCPPrompt[]): string {
  if (prompts.length === 0) return "No MCP prompts.";
  const lines = ["Prompts (use one with /prompt <server> <name> [json arguments]):"];
  for (const prompt of prompts.slice(0, MAX_LISTED)) {
    const args = (prompt.arguments ?? []).map((arg) => `${arg.name}${arg.required ? "*" : ""}`).join(", ");
    const description = short(prompt.description ?? prompt.title);
    lines.push(
      `- ${prompt.server} ${prompt.name}${args ? ` (${args})` : ""}${description ? `: ${description}` : ""}`,
    );
  }
  if (prompts.length > MAX_LISTED) lines.push(`… and ${prompts.length - MAX_LISTED} more.`);
  return lines.join("\n");
}
