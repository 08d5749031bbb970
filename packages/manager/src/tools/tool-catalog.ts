import { createHash } from "node:crypto";
import type { MCPToolDefinition, SourceMeta } from "@mcp-rt/config";
import { DeferredMCPTool } from "./deferred-mcp-tool.js";
import { MCPTool, type MCPToolHost } from "./mcp-tool.js";

/** One server's tools as the catalog reads them. */
export interface ServerSlice {
  readonly name: string;
  /** Its exposed (filtered) tool definitions. */
  readonly definitions: readonly MCPToolDefinition[];
  /** True while they come from the cache. */
  readonly deferred: boolean;
  readonly source: SourceMeta | undefined;
}

/** Which server and original tool an exposed name stands for. */
export interface ToolOwner {
  server: string;
  tool: string;
}

const keyOf = (server: string, tool: string): string => `${server}\u0000${tool}`;

/** The longest exposed tool name most model APIs accept. */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Every exposed tool name matches this. */
export const TOOL_NAME_PATTERN: RegExp = /^[a-zA-Z0-9_-]{1,64}$/;

const HASH_LENGTH = 8;

/** One tool of one server, by their original (config / listed) names. */
export interface ToolNameEntry {
  /** The server's config name. */
  server: string;
  /** The tool's name as the server lists it. */
  tool: string;
}

/** Lower-case, every run outside `[a-z0-9]` becomes `_`, no leading or trailing `_`. */
function sanitizePart(part: string): string {
  return part
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** An 8-character hex digest of a server/tool pair (salted by `round` on later rounds), stable across runs. */
function hashOf(entry: ToolNameEntry, round = 0): string {
  // NUL cannot occur in a config key or tool name, so distinct pairs never hash the same input.
  const input = `${round === 0 ? "" : `${round}\u0000`}${entry.server}\u0000${entry.tool}`;
  return createHash("sha256").update(input).digest("hex").slice(0, HASH_LENGTH);
}

/** `<head>_<hash>` within the length limit, the head cut at the limit and trimmed of `_`. */
function withHash(base: string, entry: ToolNameEntry, round = 0): string {
  const head = base.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1).replace(/_+$/, "");
  return `${head}_${hashOf(entry, round)}`;
}

/** The readable name, before any length or collision handling. */
function baseName(entry: ToolNameEntry): string {
  // A part with nothing left (a name in another script, only punctuation) still needs something stable.
  const server = sanitizePart(entry.server) || hashOf({ server: entry.server, tool: "" });
  let tool = sanitizePart(entry.tool);
  if (tool.startsWith(`${server}_`)) tool = tool.slice(server.length + 1);
  if (tool === "") tool = hashOf(entry);
  return `mcp_${server}_${tool}`;
}

/**
 * The exposed name of one tool: `mcp_<server>_<tool>`, each part lower-cased
 * with every run of other characters turned into `_`; a tool name that already
 * starts with its server's name drops that prefix; names over 64 characters keep
 * a readable head and end in `_` + an 8-character hash of the original pair.
 *
 * It does not see other tools: use {@link createMCPToolNames} for a whole set,
 * which also resolves collisions.
 *
 * @example
 * ```ts
 * createMCPToolName("GitHub", "github.create-issue"); // "mcp_github_create_issue"
 * ```
 */
export function createMCPToolName(server: string, tool: string): string {
  const entry = { server, tool };
  const base = baseName(entry);
  return base.length > MAX_TOOL_NAME_LENGTH ? withHash(base, entry) : base;
}

/** The shape every hashed name has; a plain name of that shape is hashed too (see below). */
const HASHED_SUFFIX = /_[0-9a-f]{8}$/;

/** The pair's hashed name: what a long, colliding or hash-shaped name becomes. */
function hashedName(entry: ToolNameEntry, round = 0): string {
  return withHash(baseName(entry), entry, round);
}

/** Options of {@link createMCPToolNames}. */
export interface MCPToolNamesOptions {
  /**
   * Names no server's tool may take: the host's own tools (a session's
   * `mcp_read_result`, say). A tool whose name would be one gets a hash
   * suffix instead, as a colliding one does.
   */
  reserved?: ReadonlySet<string> | undefined;
}

/**
 * The exposed names of a set of tools, in input order. Names are those of
 * {@link createMCPToolName}; when two or more different tools would still get the
 * same name, or one would take a reserved name, each of them gets a hash
 * suffix, so a name depends only on the set, never on the order in which
 * servers answered. The same server/tool pair given twice gets the same name.
 *
 * A plain name that merely looks hashed (ends in `_` + 8 hex digits) gets a
 * hash of its own too. Plain and hashed names are then two disjoint sets, so
 * no tool name, however crafted, can take or chase another tool's name.
 */
export function createMCPToolNames(
  entries: readonly ToolNameEntry[],
  options: MCPToolNamesOptions = {},
): string[] {
  const reserved = options.reserved ?? new Set<string>();
  const keys = entries.map((entry) => `${entry.server}\u0000${entry.tool}`);
  const plain = entries.map((entry) => createMCPToolName(entry.server, entry.tool));
  const shared = clashesOf(plain, keys);
  const names = entries.map((entry, index) => {
    const name = plain[index]!;
    if (shared.has(name) || reserved.has(name)) return hashedName(entry);
    if (!HASHED_SUFFIX.test(name)) return name;
    // A plain name that already ends in its own pair's hash (an empty part, a long name) is a hashed name.
    // (Hashed only here: a SHA-256 per tool on every rebuild was most of the naming time.)
    return name.endsWith(`_${hashOf(entry)}`) ? name : hashedName(entry);
  });
  // Hashed names of distinct pairs differ unless 32 bits of SHA-256 collide; salted rounds settle that.
  for (let round = 1; round <= 16; round++) {
    const clashing = clashesOf(names, keys);
    if (clashing.size === 0) break;
    names.forEach((name, index) => {
      if (clashing.has(name)) names[index] = hashedName(entries[index]!, round);
    });
  }
  return names;
}

/**
 * The names that two or more distinct server/tool keys got: one map and one
 * set for the whole list (a set of keys per name was most of what naming
 * allocated).
 */
function clashesOf(names: readonly string[], keys: readonly string[]): Set<string> {
  const firstKey = new Map<string, string>();
  const clashing = new Set<string>();
  names.forEach((name, index) => {
    const key = keys[index]!;
    const seen = firstKey.get(name);
    if (seen === undefined) firstKey.set(name, key);
    else if (seen !== key) clashing.add(name);
  });
  return clashing;
}

/**
 * The tools a manager exposes, built from every server's slice in its table,
 * and the index from each exposed name to its server and original tool (a
 * name is never parsed to find its server).
 */
export class ToolCatalog {
  readonly #servers: { views(): Iterable<ServerSlice> };
  readonly #host: MCPToolHost;
  readonly #reserved: ReadonlySet<string>;
  readonly #onReserved: ((notice: ReservedNameNotice) => void) | undefined;
  /** The server/tool pairs already told about, so each is told once. */
  readonly #told = new Set<string>();
  #tools: MCPTool[] = [];
  #index = new Map<string, ToolOwner>();
  /** A slice changed since the set was last named. */
  #stale = false;

  /**
   * @param servers Every server's slice, in server order.
   * @param host What the tools ask about their server when they are called.
   * @param reserved Names no server's tool takes, and who is told, once per tool, when one would.
   */
  constructor(
    servers: { views(): Iterable<ServerSlice> },
    host: MCPToolHost,
    reserved: { names?: readonly string[]; onReserved?: (notice: ReservedNameNotice) => void } = {},
  ) {
    this.#servers = servers;
    this.#host = host;
    this.#reserved = new Set(reserved.names ?? []);
    this.#onReserved = reserved.onReserved;
  }

  /** The exposed tools, in server order. */
  get tools(): readonly MCPTool[] {
    this.#build();
    return this.#tools;
  }

  /** Which server and original tool `exposedName` stands for. */
  owner(exposedName: string): ToolOwner | undefined {
    this.#build();
    const owner = this.#index.get(exposedName);
    return owner ? { ...owner } : undefined;
  }

  /**
   * A server's slice changed: the set is named again when it is next read.
   * Naming takes the whole set (two servers' tools can only be told apart
   * together), so a hundred servers coming up one after another are named
   * by the reads that follow, not a hundred times each.
   */
  invalidate(): void {
    this.#stale = true;
  }

  /**
   * Names the whole set again from every server's slice, if one changed. A
   * tool whose name, definition and kind are unchanged stays the same
   * object, so a registry that tracks tools by identity only sees real
   * changes.
   */
  #build(): void {
    if (!this.#stale) return;
    this.#stale = false;
    const before = new Map(this.#tools.map((tool) => [keyOf(tool.serverName, tool.definition.name), tool]));
    const entries = [...this.#servers.views()].flatMap((record) =>
      record.definitions.map((definition) => ({ record, definition })),
    );
    const names = createMCPToolNames(
      entries.map(({ record, definition }) => ({ server: record.name, tool: definition.name })),
      { reserved: this.#reserved },
    );
    const tools: MCPTool[] = [];
    const index = new Map<string, ToolOwner>();
    entries.forEach(({ record, definition }, i) => {
      const name = names[i]!;
      const existing = before.get(keyOf(record.name, definition.name));
      const unchanged =
        existing !== undefined &&
        existing.name === name &&
        existing.definition === definition &&
        existing instanceof DeferredMCPTool === record.deferred;
      if (unchanged) {
        tools.push(existing);
      } else {
        const options = {
          host: this.#host,
          serverName: record.name,
          definition,
          name,
          ...(record.source ? { source: record.source } : {}),
        };
        tools.push(record.deferred ? new DeferredMCPTool(options) : new MCPTool(options));
      }
      index.set(name, { server: record.name, tool: definition.name });
      this.#tellIfReserved(record.name, definition.name, name);
    });
    this.#tools = tools;
    this.#index = index;
  }

  /** Tells, once per tool, of one whose plain name is reserved (it was given `name` instead). */
  #tellIfReserved(server: string, tool: string, name: string): void {
    if (this.#reserved.size === 0) return;
    const wanted = createMCPToolName(server, tool);
    if (wanted === name || !this.#reserved.has(wanted)) return;
    const key = keyOf(server, tool);
    if (this.#told.has(key)) return;
    this.#told.add(key);
    this.#onReserved?.({ server, tool, reserved: wanted, name });
  }
}

/** A server's tool whose name would have been a reserved one (a host's own tool's). */
export interface ReservedNameNotice {
  server: string;
  /** The tool's name as the server lists it. */
  tool: string;
  /** The reserved name it would have taken. */
  reserved: string;
  /** The name it is exposed under instead. */
  name: string;
}
