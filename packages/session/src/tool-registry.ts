import { type CustomTool, McpRtError } from "@mcp-rt/manager";

/**
 * The seam between mcp-rt and an agent's own tool registry. An agent that
 * already has a registry implements these five methods and proves it with
 * `toolRegistryContractTests` from `@mcp-rt/session/contract`.
 *
 * Rules every implementation keeps:
 * - `add` registers a tool without changing which tools are active; adding the
 *   same object twice is a no-op; adding a different tool under a name that is
 *   taken throws (the default registry: `McpRtError` with code `TOOL_NAME_TAKEN`).
 * - `remove` works by identity: it removes exactly that object (and its name
 *   from the active set); an unknown object is a no-op.
 * - `setActive` replaces the active set; names that are not registered are
 *   ignored, duplicates collapse.
 * - `list` and `active` return copies, in registration / activation order.
 */
export interface ToolRegistry {
  /** Registers a tool. Throws when another tool already has its name (`TOOL_NAME_TAKEN` in the default registry). */
  add(tool: CustomTool): void;
  /** Unregisters exactly this tool object; no-op when it is not registered. */
  remove(tool: CustomTool): void;
  /** Every registered tool, in registration order. */
  list(): CustomTool[];
  /** Replaces the set of active tool names (the ones the model sees). */
  setActive(names: string[]): void;
  /** The active tool names, in the order they were activated. */
  active(): string[];
}

/**
 * The default in-memory {@link ToolRegistry}.
 *
 * @example
 * ```ts
 * const registry = createToolRegistry();
 * registry.add(readFileTool);
 * registry.setActive(["read_file"]);
 * ```
 */
export function createToolRegistry(): ToolRegistry {
  const tools = new Map<string, CustomTool>();
  // A Set keeps activation order and makes removal O(1): disposing thousands of tools stays linear.
  let active = new Set<string>();
  return {
    add(tool) {
      const existing = tools.get(tool.name);
      if (existing === tool) return;
      if (existing !== undefined) {
        throw new McpRtError(
          "TOOL_NAME_TAKEN",
          `Cannot register ${tool.label} as "${tool.name}": ${existing.label} already has that name; remove it first, or rename one of them.`,
          { details: { name: tool.name } },
        );
      }
      tools.set(tool.name, tool);
    },
    remove(tool) {
      if (tools.get(tool.name) !== tool) return;
      tools.delete(tool.name);
      active.delete(tool.name);
    },
    list() {
      return [...tools.values()];
    },
    setActive(names) {
      active = new Set(names.filter((name) => tools.has(name)));
    },
    active() {
      return [...active];
    },
  };
}
