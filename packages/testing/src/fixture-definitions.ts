import { readFileSync } from "node:fs";
import type { CallToolResult, McpServer, RegisteredTool, Tool } from "@modelcontextprotocol/server";
import { z } from "zod";

/** What a `--definitions` file holds: tools listed exactly as written, and the server's instructions. */
export interface FixtureDefinitions {
  tools: Tool[];
  instructions?: string | undefined;
}

/** A tool the fixture lists as given, and its registration (which answers calls). */
export interface ListedTool {
  definition: Tool;
  registered: RegisteredTool;
}

const fileSchema = z.object({
  tools: z.array(z.looseObject({ name: z.string().min(1), inputSchema: z.looseObject({}) })).default([]),
  instructions: z.string().optional(),
});

/**
 * Reads a `--definitions` file. A file that is missing or not of that shape
 * throws, naming the file and the field, so that the fixture exits saying so.
 */
export function readFixtureDefinitions(path: string): FixtureDefinitions {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`--definitions ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`--definitions ${path}: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  return { tools: parsed.data.tools as Tool[], instructions: parsed.data.instructions };
}

/**
 * Lists the tools of `--definitions` as written (a call answers with its
 * arguments as JSON), and adds `reload_definitions`, which reads the file
 * again, lists what it holds now in place of what it held, and sends
 * `notifications/tools/list_changed`.
 */
export function addDefinedTools(
  mcp: McpServer,
  listed: Map<string, ListedTool>,
  options: { path: string; first: FixtureDefinitions },
): void {
  let defined: string[] = [];
  const list = (tools: readonly Tool[]): void => {
    for (const name of defined) {
      listed.get(name)?.registered.remove();
      listed.delete(name);
    }
    defined = [];
    for (const definition of tools) {
      if (listed.has(definition.name)) continue;
      const registered = mcp.registerTool(
        definition.name,
        { description: definition.description ?? "", inputSchema: z.looseObject({}) },
        (args: Record<string, unknown>): CallToolResult => ({
          content: [{ type: "text", text: JSON.stringify(args) }],
        }),
      );
      listed.set(definition.name, { definition, registered });
      defined.push(definition.name);
    }
  };
  list(options.first.tools);
  const reload = mcp.registerTool(
    "reload_definitions",
    { description: "Reads the --definitions file again and lists its tools.", inputSchema: z.object({}) },
    (): CallToolResult => {
      list(readFixtureDefinitions(options.path).tools);
      mcp.sendToolListChanged();
      return { content: [{ type: "text", text: `listed ${defined.length} tools` }] };
    },
  );
  listed.set("reload_definitions", {
    definition: {
      name: "reload_definitions",
      description: "Reads the --definitions file again and lists its tools.",
      inputSchema: { type: "object", properties: {} },
    },
    registered: reload,
  });
}
