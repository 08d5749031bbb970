import { POLICY_NAMES } from "@mcp-rt/config/explain";
import { errorMessage } from "@mcp-rt/config/util";
import type { Logger, MCPReloadResult } from "@mcp-rt/manager";
import { ConfigWatcher } from "./config-watcher.js";
import { logLoadProblems } from "./logger.js";

/** Options of {@link LiveConfig}. */
export interface LiveConfigOptions {
  /** Applies the config files as they are now (the session's diff reload). */
  reload: () => Promise<MCPReloadResult>;
  logger: Logger;
  /** How long edits must be quiet before they are applied (ms). @default 200 */
  debounceMs?: number;
}

/**
 * A session's live config: watches every file discovery reads or would read
 * and, once edits are quiet, applies them as one reload (only the servers
 * that changed move). It says each file error once, while it lasts, and
 * once when project servers stop to wait for approval again; a server that
 * fails to start is reported on every attempt. Reloads never overlap: edits
 * during one are applied by one more after it.
 */
export class LiveConfig {
  readonly #reload: () => Promise<MCPReloadResult>;
  readonly #logger: Logger;
  readonly #watcher: ConfigWatcher;
  #running: Promise<void> | undefined;
  #again = false;
  /** The file problems said already, as long as they last. */
  #said = new Set<string>();

  constructor(options: LiveConfigOptions) {
    this.#reload = options.reload;
    this.#logger = options.logger;
    this.#watcher = new ConfigWatcher({
      onChange: () => this.#changed(),
      logger: options.logger,
      ...(options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs }),
    });
  }

  /** Watches exactly `files` from now on (what the last discovery read or would read). */
  follow(files: readonly string[]): void {
    this.#watcher.watch(files);
  }

  /** The folders watched now. */
  get folders(): string[] {
    return this.#watcher.folders;
  }

  /** Stops watching; a reload under way finishes (the session waits for it). */
  close(): void {
    this.#watcher.close();
    this.#again = false;
  }

  #changed(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#apply().finally(() => {
      this.#running = undefined;
      if (this.#again) {
        this.#again = false;
        this.#changed();
      }
    });
  }

  async #apply(): Promise<void> {
    let result: MCPReloadResult;
    try {
      result = await this.#reload();
    } catch (error) {
      this.#logger.warn(`MCP config not applied: ${errorMessage(error)}`);
      return;
    }
    const moved = [...result.added, ...result.removed, ...result.restarted].length;
    this.#logger.debug(
      `MCP config files changed: ${moved === 0 ? "no server changed" : `${moved} server(s) changed`}`,
    );
    const fileProblems = result.problems.filter((problem) => problem.kind === "file");
    const said = new Set(fileProblems.map((problem) => problem.error.message));
    logLoadProblems(
      this.#logger,
      result.problems.filter((problem) => problem.kind !== "file" || !this.#said.has(problem.error.message)),
    );
    this.#said = said;
    for (const { name, policy, rule, policyFile } of result.discovery?.blocked ?? []) {
      if (!result.removed.includes(name)) continue;
      this.#logger.warn(
        `MCP server "${name}" stopped: forbidden by ${POLICY_NAMES[policy]} (${policyFile}): ${rule}`,
      );
    }
    const waiting = new Set(result.discovery?.needsApproval.map((entry) => entry.name));
    const stopped = result.removed.filter((name) => waiting.has(name));
    if (stopped.length > 0) {
      this.#logger.warn(
        `The project's MCP config changed: ${stopped.join(", ")} stopped and wait for your approval again; review the project's config files, then run /mcp trust`,
      );
    }
  }
}
