import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
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
  namespace?: string | undefined;
  // Keyv reads `opts.url`/`opts.dialect` to decide whether an adapter is iterable.
  opts: { url: string; dialect: string; path: string };
  #folder: Promise<void> | undefined;
  #swept = false;

  constructor(path: string) {
    this.path = path;
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
    await this.#write(this.#file(key), JSON.stringify(record));
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

  // Every read goes to disk, so what other processes wrote is seen at once.
  async #read(file: string): Promise<StoredRecord | undefined> {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if (errorCode(error) === "ENOENT") return undefined;
      throw error;
    }
    const record = parseRecord(text);
    if (record?.expires !== undefined && Date.now() > record.expires) {
      await this.#remove(file);
      return undefined;
    }
    return record;
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
    this.#folder ??= mkdir(this.path, { recursive: true, mode: 0o700 }).then(
      () => undefined,
      (error: unknown) => {
        this.#folder = undefined;
        throw error;
      },
    );
    return this.#folder;
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
 * in a 0700 folder. Nothing is held in memory, so entries written by other
 * processes are seen at once, and concurrent writers leave one whole entry.
 * A temp file that a killed writer left behind is removed by the next handle
 * that writes, once it is a minute old. It installs no signal handlers and
 * holds no open handles.
 *
 * @param path - the folder; `~/` is expanded, relative paths resolve against the cwd.
 *   @default {@link defaultCacheDir}()
 */
export function createFileStore(path?: string): FileStore {
  return new DiskStore(resolve(path === undefined ? defaultCacheDir() : expandHome(path)));
}
