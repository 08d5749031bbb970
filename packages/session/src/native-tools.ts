import { errorMessage } from "@mcp-rt/config/util";
import type { CustomTool, LoadConfigsResult, Logger } from "@mcp-rt/manager";
import type { ToolRegistry } from "./tool-registry.js";

/**
 * The agent's own tools that stand in for the servers discovery's `reserve`
 * rule holds back with `reason` (the native Exa integration is one): made
 * from the keys those servers carried, and made again when the keys change.
 */
export interface NativeReplacement {
  /** What the tools are, for warnings: `Native ${name} tools not updated: …`, e.g. `Exa`. */
  name: string;
  /** The `reason` the `reserve` rule gives the servers these tools replace. */
  reason: string;
  /** What the servers held back are, as `/mcp` names them, e.g. `an Exa server`. */
  what: string;
  /** What stands in for them, e.g. `native Exa tool` (`/mcp`: "… uses its native Exa tool instead"). */
  instead: string;
  /** The tools for the keys of the held-back servers. */
  create: (keys: string[]) => CustomTool[];
}

/** The keys of the servers held back with `reason`, each once, in the order found. */
export function heldBackKeys(filtered: LoadConfigsResult["filtered"], reason: string): string[] {
  const keys = filtered.filter((entry) => entry.reason === reason).flatMap((entry) => entry.keys);
  return [...new Set(keys)];
}

/**
 * A session's native replacement tools. They follow the keys discovery found:
 * each {@link NativeTools.apply} asks the replacement again and replaces the
 * tools it made before (by identity), leaving the agent's other tools as they were.
 */
export class NativeTools {
  /** The replacement these tools come from. */
  readonly replacement: NativeReplacement;
  readonly #registry: ToolRegistry;
  readonly #logger: Logger;
  #tools: CustomTool[] = [];
  #apiKeys: string[] | undefined;

  constructor(options: { registry: ToolRegistry; replacement: NativeReplacement; logger: Logger }) {
    this.#registry = options.registry;
    this.replacement = options.replacement;
    this.#logger = options.logger;
  }

  /** The keys the current tools were made with (empty before the first `apply`). */
  get apiKeys(): string[] {
    return [...(this.#apiKeys ?? [])];
  }

  /** The native tools registered now. */
  get tools(): CustomTool[] {
    return [...this.#tools];
  }

  /**
   * Makes the tools for `apiKeys` and puts them in place of the previous ones,
   * active. Unchanged keys keep the tools unless `force` (a reload). When the
   * replacement throws, the previous tools stay and a warning is logged.
   */
  apply(apiKeys: string[], options: { force?: boolean } = {}): void {
    if (!options.force && this.#apiKeys !== undefined && sameKeys(this.#apiKeys, apiKeys)) return;
    let next: CustomTool[];
    try {
      next = this.replacement.create([...apiKeys]);
    } catch (error) {
      this.#logger.warn(`Native ${this.replacement.name} tools not updated: ${errorMessage(error)}`);
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
        this.#logger.warn(
          `Native ${this.replacement.name} tool ${tool.name} skipped: ${errorMessage(error)}`,
        );
      }
    }
    this.#tools = added;
    this.#registry.setActive([...this.#registry.active(), ...added.map((tool) => tool.name)]);
  }

  /** {@link NativeTools.apply} with the keys of the servers a discovery held back for this replacement. */
  follow(filtered: LoadConfigsResult["filtered"], options: { force?: boolean } = {}): void {
    this.apply(heldBackKeys(filtered, this.replacement.reason), options);
  }

  /** Unregisters the native tools. */
  remove(): void {
    for (const tool of this.#tools) this.#registry.remove(tool);
    this.#tools = [];
  }
}

function sameKeys(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}
