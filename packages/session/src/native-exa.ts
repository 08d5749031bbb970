import { errorMessage } from "@mcp-rt/config/util";
import type { CustomTool, Logger } from "@mcp-rt/manager";
import type { ToolRegistry } from "./tool-registry.js";

/** The agent's native Exa integration: its tools for the API keys of the Exa servers left out. */
export type NativeExa = (apiKeys: string[]) => CustomTool[];

/**
 * A session's native Exa tools. They follow the Exa API keys discovery found:
 * each {@link NativeExaTools.apply} asks the integration again and replaces the
 * tools it made before (by identity), leaving the agent's other tools as they were.
 */
export class NativeExaTools {
  readonly #registry: ToolRegistry;
  readonly #create: NativeExa;
  readonly #logger: Logger;
  #tools: CustomTool[] = [];
  #apiKeys: string[] | undefined;

  constructor(options: { registry: ToolRegistry; create: NativeExa; logger: Logger }) {
    this.#registry = options.registry;
    this.#create = options.create;
    this.#logger = options.logger;
  }

  /** The keys the current tools were made with (empty before the first `apply`). */
  get apiKeys(): string[] {
    return [...(this.#apiKeys ?? [])];
  }

  /** The native Exa tools registered now. */
  get tools(): CustomTool[] {
    return [...this.#tools];
  }

  /**
   * Makes the tools for `apiKeys` and puts them in place of the previous ones,
   * active. Unchanged keys keep the tools unless `force` (a reload). When the
   * integration throws, the previous tools stay and a warning is logged.
   */
  apply(apiKeys: string[], options: { force?: boolean } = {}): void {
    if (!options.force && this.#apiKeys !== undefined && sameKeys(this.#apiKeys, apiKeys)) return;
    let next: CustomTool[];
    try {
      next = this.#create([...apiKeys]);
    } catch (error) {
      this.#logger.warn(`Native Exa tools not updated: ${errorMessage(error)}`);
      return;
    }
    this.#apiKeys = [...apiKeys];
    this.remove();
    const added: CustomTool[] = [];
    for (const tool of next) {
      try {
        this.#registry.add(tool);
        added.push(tool);
      } catch (error) {
        this.#logger.warn(`Native Exa tool ${tool.name} skipped: ${errorMessage(error)}`);
      }
    }
    this.#tools = added;
    this.#registry.setActive([...this.#registry.active(), ...added.map((tool) => tool.name)]);
  }

  /** Unregisters the native Exa tools. */
  remove(): void {
    for (const tool of this.#tools) this.#registry.remove(tool);
    this.#tools = [];
  }
}

function sameKeys(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}
