import type { ConfigIssue } from "../model/config-issue.js";
import type { SourceMeta } from "../model/source-meta.js";
import { type ConfigFormat, readConfigFile } from "../read-config-file.js";
import type { DiscoveredServer, DiscoveryContext } from "../types.js";
import { describeValue, isPlainObject } from "../util/describe-value.js";

/** One config file a source reads. */
export interface SourceFile {
  /** Absolute path. */
  path: string;
  /** `project` for a file inside the project folder (skipped with `enableProjectConfig: false`). */
  level: SourceMeta["level"];
  /** How it is written. */
  format: ConfigFormat;
}

/** A file of a file-based source and where its server map sits. */
export interface FileSourceFile extends SourceFile {
  /** The key of the server map: `mcpServers`, `servers`, `mcp_servers`; at the top level unless `within` says where. */
  key: string;
  /**
   * Finds the object that holds the map, for a map nested deeper than the top
   * level (Claude Code's `projects[<cwd>].mcpServers`); undefined: the file
   * has none. A file listed twice (two maps in one file) is read once.
   */
  within?: (document: Record<string, unknown>, ctx: DiscoveryContext) => Promise<MapHolder | undefined>;
}

/** The object that holds a server map, and where it sits in its file, for messages: `projects["/work/app"]`. */
export interface MapHolder {
  object: Record<string, unknown>;
  path: string;
}

/** A provider entry mapped onto mcp-rt's field names, plus how to finish it. */
export type EntryMapping = Omit<DiscoveredServer, "name" | "source">;

/** What a mapper may read besides the entry itself. */
export interface EntryContext {
  ctx: DiscoveryContext;
  /** The whole parsed file (VS Code reads its `inputs`). */
  document: Record<string, unknown>;
}

/** A file a file-based source read, and what it held. */
export interface ReadFile extends ReadSourceFileResult {
  file: FileSourceFile;
  /** The object holding the file's server map, when the file was read and has one. */
  holder?: MapHolder;
}

/** What a file-based source's files hold, in precedence order. */
export interface ReadFileSource extends CollectedEntries {
  /** Every file read, for settings outside the server maps (Gemini's allow / deny lists). */
  read: ReadFile[];
}

/**
 * Reads a source's files, each holding one name → entry map, and lists their
 * entries as written, in the files' order; the source maps them onto mcp-rt's
 * field names. A file listed twice is read once, and its problems reported
 * once. Project-level files are skipped when `ctx.enableProjectConfig` is
 * `false`.
 */
export async function readFileSource({
  source,
  files,
  ctx,
}: {
  /** The source reading them: named in each entry's `source`. */
  source: { id: string; name: string };
  files: readonly FileSourceFile[];
  ctx: DiscoveryContext;
}): Promise<ReadFileSource> {
  const listed = files.filter((file) => allowed(file, ctx));
  const reads = new Map<string, Promise<ReadSourceFileResult>>();
  const read = await Promise.all(
    listed.map(async (file, index): Promise<ReadFile> => {
      if (!reads.has(file.path)) reads.set(file.path, readSourceFile(file));
      const { document, issues } = await reads.get(file.path)!;
      const first = listed.findIndex((other) => other.path === file.path) === index;
      const holder =
        document && (file.within ? await file.within(document, ctx) : { object: document, path: "" });
      return {
        file,
        issues: first ? issues : [],
        ...(document ? { document } : {}),
        ...(holder ? { holder } : {}),
      };
    }),
  );
  const result: ReadFileSource = { read, entries: [], issues: [] };
  for (const { file, document, issues, holder } of read) {
    result.issues.push(...issues);
    if (document === undefined || holder === undefined) continue;
    const collected = collectEntries({
      map: holder.object[file.key],
      keyPath: holder.path ? `${holder.path}.${file.key}` : file.key,
      source: sourceMeta(source, file),
      document,
    });
    result.entries.push(...collected.entries);
    result.issues.push(...collected.issues);
  }
  return result;
}

/** The files of `files` that `ctx` lets a source read (see {@link allowed}), as paths, each once. */
export function allowedPaths(files: readonly SourceFile[], ctx: DiscoveryContext): string[] {
  return [...new Set(files.filter((file) => allowed(file, ctx)).map((file) => file.path))];
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

/** A parsed config file: its top-level object, or the issues that kept it from being read. */
export interface ReadSourceFileResult {
  /** The top-level object; absent when the file is missing or could not be used. */
  document?: Record<string, unknown>;
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
  if (isPlainObject(result.document)) return { document: result.document, issues: [] };
  const got = describeValue(result.document);
  return { issues: [invalid(file.path, `${file.path}: expected an object at the top level, got ${got}`)] };
}

/**
 * One entry of a file's name → entry map, as written: `entry` is the object to
 * map onto mcp-rt's field names, absent when the entry is not an object; then
 * `server` passes it on as it is, to be reported by validation under its own name.
 */
export interface WrittenEntry {
  /** The entry as a discovered server, its `config` as written. */
  server: DiscoveredServer;
  entry?: Record<string, unknown>;
  /** The whole parsed file the entry is in. */
  document: Record<string, unknown>;
}

/** The entries of one map, or the issue that it is not a name → entry map. */
export interface CollectedEntries {
  entries: WrittenEntry[];
  issues: ConfigIssue[];
}

/** Options of {@link collectEntries}. */
export interface CollectEntriesOptions {
  /** The value found at `keyPath` (e.g. the `mcpServers` object); `undefined` means none. */
  map: unknown;
  /** Where `map` sits in the file, for messages: `mcpServers`, `servers`, `mcp_servers`… */
  keyPath: string;
  /** Where the entries come from. */
  source: SourceMeta;
  /** The whole parsed file. */
  document: Record<string, unknown>;
}

/** Lists a file's name → entry map as {@link WrittenEntry}s, for the source to map. */
export function collectEntries({ map, keyPath, source, document }: CollectEntriesOptions): CollectedEntries {
  if (map === undefined) return { entries: [], issues: [] };
  if (!isPlainObject(map)) {
    const message = `${source.path}: "${keyPath}" must be an object mapping server names to their configs, got ${describeValue(map)}`;
    return { entries: [], issues: [invalid(source.path, message)] };
  }
  const entries = Object.entries(map).map(
    ([name, entry]): WrittenEntry => ({
      server: { name, source, config: entry },
      ...(isPlainObject(entry) ? { entry } : {}),
      document,
    }),
  );
  return { entries, issues: [] };
}

function invalid(path: string, message: string): ConfigIssue {
  return { path, code: "CONFIG_INVALID", message };
}
