import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, open, readdir, rename, stat, unlink, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { IEventEmitter, KeyvStoreAdapter } from "keyv";

/** The file store: a keyv store adapter that keeps one JSON file per key in a folder. */
export interface FileStore extends KeyvStoreAdapter {
  /** The folder the entries live in. */
  readonly path: string;
  /** Every live `[key, value]` of a namespace (all entries without one), read from disk. */
  iterator<Value>(namespace?: string): AsyncGenerator<Array<string | Awaited<Value> | undefined>, void>;
}

/** One entry on disk: the full key (files are named by its hash), the value, and when it expires. */
interface StoredRecord {
  key: string;
  value: unknown;
  expires?: number;
}

/** Options of {@link createFileStore}. */
export interface FileStoreOptions {
  /**
   * The largest entry file read or written, in bytes. A larger file found on
   * disk is deleted unread (a miss); a larger write throws.
   * @default 33554432 (32 MiB)
   */
  maxFileBytes?: number;
}

/** Default of `FileStoreOptions.maxFileBytes`. */
const DEFAULT_MAX_FILE_BYTES = 32 * 1024 * 1024;
const RETRYABLE_RENAME = new Set(["EPERM", "EACCES", "EBUSY"]);
const STALE_TEMP_MS = 60_000;

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * The folder the file store uses when given none: `$XDG_CACHE_HOME/mcp-rt`, or
 * `~/.cache/mcp-rt` when `XDG_CACHE_HOME` is unset or relative (as the XDG spec says).
 */
export function defaultCacheDir(
  env: Record<string, string | undefined> = process.env,
  home: string = homedir(),
): string {
  const xdg = env.XDG_CACHE_HOME;
  return xdg && isAbsolute(xdg) ? join(xdg, "mcp-rt") : join(home, ".cache", "mcp-rt");
}

function expandHome(path: string): string {
  if (path === "~") return homedir();
  return path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
}

function parseRecord(text: string): StoredRecord | undefined {
  try {
    const data = JSON.parse(text) as Partial<StoredRecord> | null;
    if (typeof data !== "object" || data === null || typeof data.key !== "string" || !("value" in data)) {
      return undefined;
    }
    if (data.expires !== undefined && typeof data.expires !== "number") return undefined;
    return data as StoredRecord;
  } catch {
    return undefined;
  }
}

class DiskStore implements FileStore {
  readonly path: string;
  readonly #maxFileBytes: number;
  namespace?: string | undefined;
  // Keyv reads `opts.url`/`opts.dialect` to decide whether an adapter is iterable.
  opts: { url: string; dialect: string; path: string };
  #folder: Promise<void> | undefined;
  #swept = false;

  constructor(path: string, maxFileBytes: number) {
    this.path = path;
    this.#maxFileBytes = maxFileBytes;
    this.opts = { url: pathToFileURL(path).href, dialect: "file", path };
  }

  async get<Value>(key: string): Promise<Value | undefined> {
    const record = await this.#read(this.#file(key));
    return record?.key === key ? (record.value as Value) : undefined;
  }

  async getMany<Value>(keys: string[]): Promise<Array<Value | undefined>> {
    return Promise.all(keys.map((key) => this.get<Value>(key)));
  }

  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }

  async hasMany(keys: string[]): Promise<boolean[]> {
    return Promise.all(keys.map((key) => this.has(key)));
  }

  async set(key: string, value: unknown, ttl?: number): Promise<boolean> {
    const record: StoredRecord = { key, value };
    if (typeof ttl === "number" && ttl > 0) record.expires = Date.now() + ttl;
    const text = JSON.stringify(record);
    if (Buffer.byteLength(text) > this.#maxFileBytes) {
      throw new RangeError(
        `file store: an entry of ${Buffer.byteLength(text)} bytes is larger than maxFileBytes (${this.#maxFileBytes})`,
      );
    }
    await this.#write(this.#file(key), text);
    return true;
  }

  async setMany(entries: Array<{ key: string; value: unknown; ttl?: number }>): Promise<void> {
    await Promise.all(entries.map((entry) => this.set(entry.key, entry.value, entry.ttl)));
  }

  async delete(key: string): Promise<boolean> {
    return this.#remove(this.#file(key));
  }

  async deleteMany(keys: string[]): Promise<boolean> {
    const results = await Promise.all(keys.map((key) => this.delete(key)));
    return results.some(Boolean);
  }

  async clear(): Promise<void> {
    const prefix = this.namespace ? `${this.namespace}:` : "";
    for (const name of await this.#names()) {
      const file = join(this.path, name);
      if (name.endsWith(".tmp")) {
        await this.#removeIfStale(file);
      } else if (name.endsWith(".json")) {
        const record = prefix ? await this.#read(file) : undefined;
        if (!prefix || record?.key.startsWith(prefix)) await this.#remove(file);
      }
    }
  }

  async *iterator<Value>(
    namespace?: string,
  ): AsyncGenerator<Array<string | Awaited<Value> | undefined>, void> {
    const prefix = namespace ? `${namespace}:` : "";
    for (const name of await this.#names()) {
      if (!name.endsWith(".json")) continue;
      const record = await this.#read(join(this.path, name));
      if (record?.key.startsWith(prefix)) yield [record.key, record.value as Awaited<Value>];
    }
  }

  async disconnect(): Promise<void> {}

  // Failures are thrown by the call that hit them; the store never emits events.
  on(_event: string, _listener: (...args: unknown[]) => void): IEventEmitter {
    return this;
  }

  #file(key: string): string {
    return join(this.path, `${createHash("sha256").update(key).digest("base64url")}.json`);
  }

  async #names(): Promise<string[]> {
    try {
      return await readdir(this.path);
    } catch (error) {
      if (errorCode(error) === "ENOENT") return [];
      throw error;
    }
  }

  // Every read goes to disk, so what other processes wrote is seen at once. Writes are
  // atomic, so a file too large, cut short or not JSON was planted or broken on disk:
  // it is deleted, so that it is not read again at every start.
  async #read(file: string): Promise<StoredRecord | undefined> {
    const text = await this.#readText(file);
    if (text === undefined) return undefined;
    const record = parseRecord(text);
    if (record === undefined || (record.expires !== undefined && Date.now() > record.expires)) {
      await this.#remove(file);
      return undefined;
    }
    return record;
  }

  /** The file's text; `undefined` when it is missing, or too large (then it is deleted unread). */
  async #readText(file: string): Promise<string | undefined> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(file, "r");
    } catch (error) {
      if (errorCode(error) === "ENOENT") return undefined;
      throw error;
    }
    try {
      if ((await handle.stat()).size > this.#maxFileBytes) {
        await this.#remove(file);
        return undefined;
      }
      return await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
  }

  async #remove(file: string): Promise<boolean> {
    try {
      await unlink(file);
      return true;
    } catch (error) {
      if (errorCode(error) === "ENOENT") return false;
      throw error;
    }
  }

  // Left by a process that died mid-write; a live writer renames within milliseconds.
  async #removeIfStale(temp: string): Promise<void> {
    const info = await stat(temp).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > STALE_TEMP_MS) await this.#remove(temp);
  }

  // Once per handle, on its first write: nothing else would ever remove them.
  async #sweepStaleTemps(): Promise<void> {
    if (this.#swept) return;
    this.#swept = true;
    try {
      const temps = (await this.#names()).filter((name) => name.endsWith(".tmp"));
      for (const name of temps) await this.#removeIfStale(join(this.path, name));
    } catch {
      // Best effort: the write itself reports a folder that does not work.
    }
  }

  #ensureFolder(): Promise<void> {
    this.#folder ??= this.#makeFolder().catch((error: unknown) => {
      this.#folder = undefined;
      throw error;
    });
    return this.#folder;
  }

  // 0700 when made; one that others can read or enter (made by hand, or by an older
  // mcp-rt under a loose umask) is made private too, when it is ours to change.
  async #makeFolder(): Promise<void> {
    await mkdir(this.path, { recursive: true, mode: 0o700 });
    if (process.platform === "win32") return;
    const info = await stat(this.path);
    if ((info.mode & 0o077) !== 0 && info.uid === process.getuid?.()) await chmod(this.path, 0o700);
  }

  // Write a private temp file next to the target, then rename it over the target:
  // readers and concurrent writers only ever see a whole file.
  async #write(file: string, text: string): Promise<void> {
    await this.#ensureFolder();
    const temp = `${file}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(temp, text, { mode: 0o600, flag: "wx" });
    } catch (error) {
      if (errorCode(error) !== "ENOENT") throw error;
      // The folder was removed while we were running: make it again, once.
      this.#folder = undefined;
      await this.#ensureFolder();
      await writeFile(temp, text, { mode: 0o600, flag: "wx" });
    }
    try {
      await this.#rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
    await this.#sweepStaleTemps();
  }

  async #rename(from: string, to: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await rename(from, to);
        return;
      } catch (error) {
        // Windows refuses to replace a file another process has open; it is released quickly.
        const code = errorCode(error);
        if (process.platform !== "win32" || attempt >= 5 || !code || !RETRYABLE_RENAME.has(code)) throw error;
        await new Promise((done) => setTimeout(done, 10 * 2 ** attempt));
      }
    }
  }
}

/**
 * A persistent keyv store adapter on plain files, with no native build: one
 * JSON file per key, written atomically (temp file + rename), file mode 0600
 * in a 0700 folder (an existing folder others can open is made 0700 on first
 * write). Nothing is held in memory, so entries written by other processes
 * are seen at once, and concurrent writers leave one whole entry. A file
 * larger than `maxFileBytes`, cut short or not JSON is deleted when it is
 * read (a miss), so a broken entry is not read again at every start.
 * A temp file that a killed writer left behind is removed by the next handle
 * that writes, once it is a minute old. It installs no signal handlers and
 * holds no open handles.
 *
 * @param path - the folder; `~/` is expanded, relative paths resolve against the cwd.
 *   @default {@link defaultCacheDir}()
 * @throws TypeError for a `maxFileBytes` that is not a positive number.
 */
export function createFileStore(path?: string, options: FileStoreOptions = {}): FileStore {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (typeof maxFileBytes !== "number" || !(maxFileBytes > 0)) {
    throw new TypeError(
      `createFileStore: maxFileBytes must be a positive number, got ${String(maxFileBytes)}`,
    );
  }
  return new DiskStore(resolve(path === undefined ? defaultCacheDir() : expandHome(path)), maxFileBytes);
}
