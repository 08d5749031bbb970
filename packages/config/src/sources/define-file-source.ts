import type { ConfigIssue } from "../model/config-issue.js";
import type {
  CapabilitySource,
  CapabilitySourceResult,
  DiscoveredServer,
  DiscoveryContext,
} from "../types.js";
import {
  allowedPaths,
  type EntryContext,
  type EntryMapping,
  type FileSourceFile,
  type ReadFile,
  readFileSource,
} from "./file-source.js";

/** What a file-based source found in its server maps, for {@link FileSourceDefinition.finish}. */
export interface FileSourceFindings {
  /** Every entry, mapped, in precedence order. */
  servers: DiscoveredServer[];
  issues: ConfigIssue[];
  /** Every file listed, as read (its document, and the object holding its map). */
  read: ReadFile[];
}

/** A config source that reads server maps from files: who it is, which files, how an entry maps. */
export interface FileSourceDefinition {
  /** Provider id, e.g. `cursor`. */
  id: string;
  /** Display name, e.g. `Cursor`. */
  name: string;
  /** Higher wins when two sources define the same server name. */
  priority: number;
  /** The files it reads, highest precedence first (a project file before the user's). */
  files(ctx: DiscoveryContext): FileSourceFile[];
  /** Maps one entry (an object) onto mcp-rt's field names; without it, entries are mcp-rt's shape already. */
  map?(entry: Record<string, unknown>, info: EntryContext): EntryMapping;
  /**
   * What the files say outside their server maps (allow and deny lists,
   * `disabledServers`): the source's result, made from what its maps held.
   * @default the servers and issues as found
   */
  finish?(found: FileSourceFindings, ctx: DiscoveryContext): CapabilitySourceResult;
}

/**
 * A {@link CapabilitySource} that reads `files` (project-level ones only when
 * `ctx.enableProjectConfig` allows), lists each file's server map in order,
 * maps every entry that is an object with `map` (any other entry is passed on
 * as written, for validation to report under its own name), and names the
 * files it would read as its `paths`, so that a session watches them.
 *
 * @example
 * ```ts
 * const source = defineFileSource({
 *   id: "acme",
 *   name: "Acme",
 *   priority: 50,
 *   files: (ctx) => [{ path: join(ctx.homeDir, ".acme.json"), level: "user", format: "json", key: "servers" }],
 *   map: (entry) => ({ config: entry, interpolation: { syntax: "posix" } }),
 * });
 * ```
 */
export function defineFileSource(definition: FileSourceDefinition): CapabilitySource {
  const { id, name, priority, files, map, finish } = definition;
  return {
    id,
    name,
    priority,
    paths: (ctx) => allowedPaths(files(ctx), ctx),
    async load(ctx) {
      const { entries, issues, read } = await readFileSource({
        source: { id, name },
        files: files(ctx),
        ctx,
      });
      const servers = entries.map(({ server, entry, document }) => ({
        ...server,
        ...(entry && map?.(entry, { ctx, document })),
      }));
      return finish ? finish({ servers, issues, read }, ctx) : { servers, issues };
    },
  };
}
