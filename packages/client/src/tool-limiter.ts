import type { MCPToolDefinition } from "@mcp-rt/config";
import { measureJson } from "@mcp-rt/config/util";
import { DEFAULT_TOOL_LIMITS, type ToolLimitBreach, type ToolLimits } from "./tool-limits.js";

/** Resolves limits against the defaults; a limit that is not a positive number is a `TypeError`. */
export function resolveToolLimits(limits: ToolLimits | undefined): Required<ToolLimits> {
  const resolved = { ...DEFAULT_TOOL_LIMITS, ...limits };
  for (const [name, value] of Object.entries(resolved)) {
    if (typeof value !== "number" || !(value > 0)) {
      throw new TypeError(`toolLimits.${name} must be a positive number, got ${String(value)}`);
    }
  }
  return resolved;
}

/** The start of a name for a message: at most 40 characters. */
function shortName(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 39)}…` : name);
}

/**
 * Applies the per-tool limits to listed definitions as they come, and says
 * afterwards what it did: one {@link ToolLimitBreach} per kind.
 */
export class ToolLimiter {
  readonly #server: string;
  readonly #limits: Required<ToolLimits>;
  readonly #longNames: string[] = [];
  #cutDescriptions = 0;
  readonly #replacedSchemas: string[] = [];
  #droppedParts = 0;
  #schemaLimit: "maxSchemaDepth" | "maxSchemaSize" | undefined;
  #pastMaxTools = 0;

  constructor(server: string, limits: Required<ToolLimits>) {
    this.#server = server;
    this.#limits = limits;
  }

  /** True once `kept` tools fill `maxTools`. */
  full(kept: number): boolean {
    return kept >= this.#limits.maxTools;
  }

  /** Counts tools listed past `maxTools` (at least `count`). */
  skipped(count: number): void {
    this.#pastMaxTools += count;
  }

  /** The definition within the limits, or `undefined` when the tool is dropped. */
  apply(tool: MCPToolDefinition): MCPToolDefinition | undefined {
    const { maxToolNameLength, maxDescriptionLength, maxSchemaDepth, maxSchemaSize } = this.#limits;
    if (tool.name.length > maxToolNameLength) {
      this.#longNames.push(tool.name);
      return undefined;
    }
    const within = { maxDepth: maxSchemaDepth, maxSize: maxSchemaSize };
    const out: MCPToolDefinition = { ...tool };
    let note = "";
    const input = measureJson(tool.inputSchema, within);
    if (input.exceeded) this.#schemaLimit ??= input.exceeded === "depth" ? "maxSchemaDepth" : "maxSchemaSize";
    if (input.exceeded) {
      this.#replacedSchemas.push(tool.name);
      out.inputSchema = { type: "object" };
      const why =
        input.exceeded === "depth"
          ? `it nests deeper than ${maxSchemaDepth} levels`
          : `it is larger than ${maxSchemaSize} characters`;
      note = ` [mcp-rt: the server's input schema was removed because ${why}; the arguments are not described]`;
    }
    for (const part of ["outputSchema", "annotations"] as const) {
      const exceeded = out[part] === undefined ? undefined : measureJson(out[part], within).exceeded;
      if (exceeded) {
        this.#schemaLimit ??= exceeded === "depth" ? "maxSchemaDepth" : "maxSchemaSize";
        delete out[part];
        this.#droppedParts++;
      }
    }
    if (out.title !== undefined && out.title.length > maxDescriptionLength) {
      out.title = out.title.slice(0, maxDescriptionLength);
    }
    const description = out.description;
    if (description !== undefined && description.length > maxDescriptionLength) {
      this.#cutDescriptions++;
      const cut = ` [cut by mcp-rt: ${description.length} characters, the first ${maxDescriptionLength} kept]`;
      out.description = `${description.slice(0, Math.max(0, maxDescriptionLength - cut.length))}${cut}`;
    }
    if (note) out.description = `${out.description ?? ""}${note}`;
    return out;
  }

  /** What was done, one breach per kind. */
  breaches(): ToolLimitBreach[] {
    const server = `MCP server "${this.#server}"`;
    const limits = this.#limits;
    const breaches: ToolLimitBreach[] = [];
    if (this.#pastMaxTools > 0) {
      breaches.push({
        limit: "maxTools",
        tools: this.#pastMaxTools,
        message: `${server} lists more than ${limits.maxTools} tools; kept the first ${limits.maxTools} and dropped the rest (limit maxTools)`,
      });
    }
    if (this.#longNames.length > 0) {
      const names = this.#longNames.slice(0, 3).map(shortName).join(", ");
      breaches.push({
        limit: "maxToolNameLength",
        tools: this.#longNames.length,
        message: `${server} lists ${this.#longNames.length} tool(s) with a name longer than ${limits.maxToolNameLength} characters; dropped them (limit maxToolNameLength): ${names}`,
      });
    }
    if (this.#cutDescriptions > 0) {
      breaches.push({
        limit: "maxDescriptionLength",
        tools: this.#cutDescriptions,
        message: `${server} lists ${this.#cutDescriptions} tool description(s) longer than ${limits.maxDescriptionLength} characters; cut them, with a note (limit maxDescriptionLength)`,
      });
    }
    if (this.#schemaLimit) {
      const names = this.#replacedSchemas.slice(0, 3).map(shortName).join(", ");
      const replaced =
        this.#replacedSchemas.length > 0
          ? `replaced the input schema of ${this.#replacedSchemas.length} tool(s) (${names}) with an empty one`
          : "";
      const dropped =
        this.#droppedParts > 0 ? `dropped ${this.#droppedParts} output schema(s) or annotations` : "";
      breaches.push({
        limit: this.#schemaLimit,
        tools: this.#replacedSchemas.length + this.#droppedParts,
        message: `${server} lists schemas nested deeper than ${limits.maxSchemaDepth} levels or larger than ${limits.maxSchemaSize} characters; ${[replaced, dropped].filter(Boolean).join(" and ")} (limits maxSchemaDepth, maxSchemaSize)`,
      });
    }
    return breaches;
  }
}
