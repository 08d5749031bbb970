import { describeValue, isPlainObject } from "../describe-value.js";
import { type ConfigFormat, readConfigFile } from "../read-config-file.js";
import type { ConfigIssue, SourceMeta } from "../server-config.js";
import type {
  CapabilitySource,
  CapabilitySourceResult,
  DiscoveredServer,
  DiscoveryContext,
} from "../types.js";

/** One config file a source reads. */
export interface SourceFile {
  /** Absolute path. */
  path: string;
  /** `project` for a file inside the project folder (skipped with `enableProjectConfig: false`). */
  level: SourceMeta["level"];
  /** How it is written. */
  format: ConfigFormat;
}

/** A provider entry mapped onto mcp-rt's field names, plus how to finish it. */
export type EntryMapping = Omit<DiscoveredServer, "name" | "source">;

/** What an {@link EntryMapper} is told besides the entry itself. */
export interface EntryContext {
  name: string;
  ctx: DiscoveryContext;
  /** The whole parsed file (VS Code reads its `inputs`). */
  document: Record<string, unknown>;
}

/** Maps one provider entry (an object) onto `MCPServerConfig` field names. */
export type EntryMapper = (entry: Record<string, unknown>, info: EntryContext) => EntryMapping;

/** A parsed config file: its top-level object, or the issues that kept it from being read. */
export interface ReadSourceFileResult {
  /** The top-level object; absent when the file is missing or could not be used. */
  document?: Record<string, unknown>;
  /** Why it could not be used, if so. */
  issues: ConfigIssue[];
}

/**
 * Reads one source file: nothing when it is missing; an issue when it cannot
 * be read, does not parse, or is not an object at the top level.
 */
export async function readSourceFile(file: SourceFile): Promise<ReadSourceFileResult> {
  const result = await readConfigFile(file.path, file.format);
  if (result.status === "missing") return { issues: [] };
  if (result.status === "error") return { issues: [result.issue] };
  if (!isPlainObject(result.document)) {
    return {
      issues: [
        {
          path: file.path,
          code: "CONFIG_INVALID",
          message: `${file.path}: expected an object at the top level, got ${describeValue(result.document)}`,
        },
      ],
    };
  }
  return { document: result.document, issues: [] };
}

/** Options of {@link collectServers}. */
export interface CollectServersOptions {
  /** The value found at `keyPath` (e.g. the `mcpServers` object); `undefined` means none. */
  map: unknown;
  /** Where `map` sits in the file, for messages: `mcpServers`, `servers`, `mcp_servers`… */
  keyPath: string;
  /** Where the entries come from. */
  source: SourceMeta;
  /** The whole parsed file, passed on to the mapper. */
  document: Record<string, unknown>;
  ctx: DiscoveryContext;
  /** The provider's mapping of one entry. */
  mapEntry: EntryMapper;
}

/**
 * Turns a file's name → entry map into {@link DiscoveredServer}s. Object
 * entries go through the provider's mapper; anything else is passed on as it
 * is, to be reported by validation under its own name.
 */
export function collectServers(options: CollectServersOptions): CapabilitySourceResult {
  const { map, keyPath, source } = options;
  if (map === undefined) return { servers: [], issues: [] };
  if (!isPlainObject(map)) {
    return {
      servers: [],
      issues: [
        {
          path: source.path,
          code: "CONFIG_INVALID",
          message: `${source.path}: "${keyPath}" must be an object mapping server names to their configs, got ${describeValue(map)}`,
        },
      ],
    };
  }
  const servers = Object.entries(map).map(([name, entry]): DiscoveredServer => {
    const base = { name, source };
    if (!isPlainObject(entry)) return { ...base, config: entry };
    return { ...options.mapEntry(entry, { name, ctx: options.ctx, document: options.document }), ...base };
  });
  return { servers, issues: [] };
}

/** A file of a {@link createFileSource} source and where its server map sits. */
export interface FileSourceFile extends SourceFile {
  /** The top-level key of the server map: `mcpServers`, `servers`, `mcp_servers`. */
  key: string;
}

/** A file a {@link createFileSource} source read, and what it held. */
export interface ReadFile extends ReadSourceFileResult {
  file: FileSourceFile;
}

/** Options of {@link createFileSource}. */
export interface FileSourceOptions {
  /** Provider id, e.g. `cursor`. */
  id: string;
  /** Display name, e.g. `Cursor`. */
  name: string;
  /** Higher wins when two sources define the same server name. */
  priority: number;
  /** The files, highest precedence first (project before user). */
  files(ctx: DiscoveryContext): FileSourceFile[];
  /** The provider's mapping of one entry. */
  mapEntry: EntryMapper;
  /**
   * Settings outside the server map that change the result (Gemini's allow /
   * deny lists, mcp-rt's `disabledServers` and `alwaysLoadServers`): gets the merged result and every
   * file that was read, in precedence order, and returns the final result.
   */
  finish?(result: Required<CapabilitySourceResult>, read: readonly ReadFile[]): CapabilitySourceResult;
}

/**
 * A source that reads a fixed list of files, each holding one name → entry map.
 * Project-level files are skipped when `ctx.enableProjectConfig` is `false`.
 */
export function createFileSource(options: FileSourceOptions): CapabilitySource {
  return {
    id: options.id,
    name: options.name,
    priority: options.priority,
    paths: (ctx) =>
      options
        .files(ctx)
        .filter((file) => allowed(file, ctx))
        .map((file) => file.path),
    async load(ctx) {
      const files = options.files(ctx).filter((file) => allowed(file, ctx));
      const read = await Promise.all(
        files.map(async (file): Promise<ReadFile> => ({ file, ...(await readSourceFile(file)) })),
      );
      const merged = mergeResults(
        read.map(({ file, document, issues }) => {
          if (document === undefined) return { servers: [], issues };
          return collectServers({
            map: document[file.key],
            keyPath: file.key,
            source: sourceMeta(options, file),
            document,
            ctx,
            mapEntry: options.mapEntry,
          });
        }),
      );
      return options.finish ? options.finish(merged, read) : merged;
    },
  };
}

/** False for a project-level file when project config is turned off. */
export function allowed(file: Pick<SourceFile, "level">, ctx: DiscoveryContext): boolean {
  return file.level === "user" || ctx.enableProjectConfig !== false;
}

/** The {@link SourceMeta} of an entry read from `file` by the source `source`. */
export function sourceMeta(
  source: { id: string; name: string },
  file: Pick<SourceFile, "path" | "level">,
): SourceMeta {
  return { provider: source.id, providerName: source.name, path: file.path, level: file.level };
}

/** Concatenates results, keeping their order (= precedence). */
export function mergeResults(results: CapabilitySourceResult[]): Required<CapabilitySourceResult> {
  const merged: Required<CapabilitySourceResult> = {
    servers: [],
    issues: [],
    disabledServers: [],
    alwaysLoadServers: [],
    projectSettings: [],
  };
  for (const result of results) {
    merged.servers.push(...result.servers);
    merged.issues.push(...result.issues);
    merged.disabledServers.push(...(result.disabledServers ?? []));
    merged.alwaysLoadServers.push(...(result.alwaysLoadServers ?? []));
    merged.projectSettings.push(...(result.projectSettings ?? []));
  }
  return merged;
}
