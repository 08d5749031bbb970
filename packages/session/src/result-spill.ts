import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage, TaskGroup } from "@mcp-rt/config/util";
import {
  type CustomTool,
  type Logger,
  McpRtError,
  type ToolResult,
  type ToolResultDetails,
} from "@mcp-rt/manager";
import { createSpillFolder, defaultSpillDir, type SpillSweep, sweepSpillFolders } from "./spill-folder.js";
import { previewText, READ_RESULT_NAME, readChars, type SpilledResult } from "./spilled-text.js";

export { READ_RESULT_NAME, type SpilledResult };

import type { ToolRegistry } from "./tool-registry.js";

/** Default of `resultSpill.thresholdChars` (Gemini CLI's threshold). */
export const DEFAULT_SPILL_THRESHOLD_CHARS = 40_000;

/** Default of `resultSpill.previewChars`: the head and the tail the model sees, together. */
export const DEFAULT_SPILL_PREVIEW_CHARS = 8000;

/** How many characters `mcp_read_result` returns when the model gives no `limit` (at most `thresholdChars`). */
const DEFAULT_PAGE_CHARS = 20_000;

/** Options of a session's `resultSpill`. */
export interface ResultSpillOptions {
  /**
   * Text results longer than this many characters (and every result that
   * `resultCharLimit` cut) are written to a file; the model gets their head,
   * their tail, their size and how to read the rest. @default 40000
   */
  thresholdChars?: number;
  /**
   * The folder that holds each session's private folder
   * (`session-<pid>-<random>`, mode 0700, files 0600). Folders of runs
   * that ended without `dispose()` are removed at the next session's start.
   * @default `<os temp folder>/mcp-rt-results-<uid>`
   */
  dir?: string;
  /** Characters of a spilled result the model sees: half from its head, half from its tail. @default 8000 */
  previewChars?: number;
}

/** A result's `details` once it spilled. */
export interface SpilledResultDetails extends ToolResultDetails {
  spill: SpilledResult;
}

const READ_PARAMETERS = {
  type: "object",
  properties: {
    id: { type: "string", description: 'The result\'s id, as the result named it (e.g. "result-1").' },
    offset: { type: "integer", minimum: 0, description: "The first character to read (default 0)." },
    limit: { type: "integer", minimum: 1, description: "How many characters to read." },
  },
  required: ["id"],
  additionalProperties: false,
} as const;

/** Throws `CONFIG_INVALID` for a `resultSpill` option that is neither `false` nor valid options. */
export function checkResultSpill(value: unknown): ResultSpillOptions | false {
  if (value === false) return false;
  const fail = (why: string): never => {
    throw new McpRtError("CONFIG_INVALID", `resultSpill: ${why}`);
  };
  if (typeof value !== "object" || value === null) return fail(`must be false or an object, got ${value}`);
  const { thresholdChars, previewChars, dir } = value as Record<string, unknown>;
  for (const [name, n] of Object.entries({ thresholdChars, previewChars })) {
    if (n !== undefined && !(Number.isSafeInteger(n) && (n as number) > 0))
      fail(`${name} must be a whole number above 0, got ${JSON.stringify(n)}`);
  }
  if (dir !== undefined && (typeof dir !== "string" || dir === "")) fail("dir must be a folder's path");
  return value as ResultSpillOptions;
}

/**
 * Keeps big text results for the model instead of cutting them. A text
 * result past `thresholdChars` (or one the manager's `resultCharLimit` cut)
 * is written whole to a file in the session's private folder, and the model
 * gets its head and tail, its size, its id and the file, and the tool
 * `mcp_read_result { id, offset, limit }` to read the rest, in any agent.
 * The tool is registered with the first spilled result; the folder and the
 * tool go at {@link ResultSpill.close}. What is written is exactly the text
 * the model would have seen uncut; images stay in the result.
 */
export class ResultSpill {
  /** `mcp_read_result`, registered while a spilled result exists. */
  readonly tool: CustomTool;
  readonly #registry: ToolRegistry;
  readonly #logger: Logger;
  readonly #parent: string;
  readonly #threshold: number;
  readonly #preview: number;
  readonly #page: number;
  readonly #entries = new Map<string, SpilledResult>();
  readonly #writes = new TaskGroup();
  #folder: Promise<string> | undefined;
  #registered = false;
  #closed = false;
  #count = 0;

  constructor(options: ResultSpillOptions & { registry: ToolRegistry; logger: Logger }) {
    this.#registry = options.registry;
    this.#logger = options.logger;
    this.#parent = options.dir ?? defaultSpillDir();
    this.#threshold = options.thresholdChars ?? DEFAULT_SPILL_THRESHOLD_CHARS;
    this.#preview = Math.min(options.previewChars ?? DEFAULT_SPILL_PREVIEW_CHARS, this.#threshold);
    this.#page = Math.min(DEFAULT_PAGE_CHARS, this.#threshold);
    this.tool = {
      name: READ_RESULT_NAME,
      label: `mcp-rt/${READ_RESULT_NAME}`,
      description:
        "Reads part of a tool result that was too long to show whole: give its id and the first character (offset) to read. " +
        `Each read returns at most ${this.#threshold} characters and says where the next part starts.`,
      parameters: READ_PARAMETERS,
      execute: (_id, params) => this.read(params),
    };
  }

  /** The session's folder, once a result spilled. */
  get folder(): Promise<string> | undefined {
    return this.#folder;
  }

  /** The results written so far. */
  results(): SpilledResult[] {
    return [...this.#entries.values()];
  }

  /**
   * Removes what sessions of ended processes left under the folder (see
   * `sweepSpillFolders`); what it must leave alone (a planted or open
   * folder) is warned about once, in one line.
   */
  async sweep(): Promise<SpillSweep> {
    const sweep = await sweepSpillFolders(this.#parent);
    if (sweep.skipped.length > 0)
      this.#logger.warn(
        `Spilled results: left alone, not removed at this start: ${sweep.skipped.join("; ")}. Remove or fix it by hand if it is yours.`,
      );
    return sweep;
  }

  /**
   * The result for the model: `result` itself while its text fits, else the
   * whole text written to a file and a preview in its place. A file that
   * cannot be written leaves the result as the manager made it (cut), with
   * a warning.
   */
  keep(result: ToolResult): Promise<ToolResult> {
    const uncut = result.details.uncutContent;
    const content = uncut ?? result.content;
    let chars = 0;
    for (const block of content) if (block.type === "text") chars += block.text.length;
    if (this.#closed || (uncut === undefined && chars <= this.#threshold)) return Promise.resolve(result);
    const work = this.#spill(result, content);
    this.#writes.add(work);
    return work;
  }

  /** `mcp_read_result`: `limit` characters (at most `thresholdChars`) from `offset` of a spilled result. */
  async read(params: unknown): Promise<ToolResult> {
    const { id, offset = 0, limit = this.#page } = (params ?? {}) as Record<string, unknown>;
    const entry = typeof id === "string" ? this.#entries.get(id) : undefined;
    if (!entry) {
      const ids = [...this.#entries.keys()].join(", ") || "none";
      return readResult(`No result ${JSON.stringify(id)}; the results kept are: ${ids}.`, true);
    }
    if (
      !Number.isSafeInteger(offset) ||
      (offset as number) < 0 ||
      !Number.isSafeInteger(limit) ||
      (limit as number) < 1
    ) {
      return readResult('"offset" must be a whole number ≥ 0 and "limit" one ≥ 1.', true);
    }
    const from = offset as number;
    if (from >= entry.chars) {
      return readResult(
        `Result "${entry.id}" has ${entry.chars} characters; offset ${from} is past its end.`,
        true,
      );
    }
    const text = await readChars(entry.path, {
      offset: from,
      limit: Math.min(limit as number, this.#threshold),
    });
    const to = from + text.length;
    const where =
      to < entry.chars
        ? `[characters ${from} to ${to} of ${entry.chars}; next: ${READ_RESULT_NAME} {"id":"${entry.id}","offset":${to}}]`
        : `[characters ${from} to ${to} of ${entry.chars}: the end of result "${entry.id}"]`;
    return {
      content: [
        { type: "text", text },
        { type: "text", text: where },
      ],
      details: { serverName: "mcp-rt", mcpToolName: READ_RESULT_NAME, isError: false, rawContent: undefined },
    };
  }

  /** Removes the tool and the session's folder, once the writes under way are done. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#registered) this.#registry.remove(this.tool);
    this.#registered = false;
    await this.#writes.idle();
    const folder = await this.#folder?.catch(() => undefined);
    if (folder) await rm(folder, { recursive: true, force: true });
    this.#entries.clear();
  }

  async #spill(result: ToolResult, content: ToolResult["content"]): Promise<ToolResult> {
    const text = content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
    this.#count += 1;
    const id = `result-${this.#count}`;
    let entry: SpilledResult;
    try {
      this.#folder ??= createSpillFolder(this.#parent).catch((error: unknown) => {
        this.#folder = undefined; // tried again with the next long result
        throw error;
      });
      const path = join(await this.#folder, `${id}.txt`);
      await writeFile(path, text, { mode: 0o600, flag: "wx" });
      entry = { id, path, chars: text.length };
      this.#entries.set(id, entry);
    } catch (error) {
      this.#logger.warn(
        `A long tool result could not be kept in a file (${errorMessage(error)}); it is cut.`,
      );
      return result;
    }
    this.#register();
    const { uncutContent: _, ...details } = result.details;
    const shown = Math.min(this.#preview, shownChars(result));
    const spilled: ToolResult & { details: SpilledResultDetails } = {
      content: [
        { type: "text", text: previewText(text, { ...entry, shown, page: this.#page }) },
        ...content.filter((block) => block.type !== "text"),
      ],
      details: { ...details, spill: entry },
    };
    if (result.isError) spilled.isError = true;
    return spilled;
  }

  #register(): void {
    if (this.#registered || this.#closed) return;
    try {
      this.#registry.add(this.tool);
      this.#registry.setActive([...this.#registry.active(), this.tool.name]);
      this.#registered = true;
    } catch (error) {
      this.#logger.warn(`${READ_RESULT_NAME} was not registered: ${errorMessage(error)}`);
    }
  }
}

/**
 * Characters of text the manager let through: a preview never shows more.
 * A cut result ends with the manager's note of what it cut, which is not the
 * server's text.
 */
function shownChars(result: ToolResult): number {
  const blocks = result.details.uncutContent ? result.content.slice(0, -1) : result.content;
  let total = 0;
  for (const block of blocks) if (block.type === "text") total += block.text.length;
  return total;
}

function readResult(text: string, isError = false): ToolResult {
  return {
    content: [{ type: "text", text }],
    ...(isError ? { isError: true } : {}),
    details: { serverName: "mcp-rt", mcpToolName: READ_RESULT_NAME, isError, rawContent: undefined },
  };
}
