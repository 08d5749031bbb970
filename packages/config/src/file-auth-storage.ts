import { readFile, rename } from "node:fs/promises";
import { resolve } from "node:path";
import { withFileLock } from "./file-lock.js";
import { mcpRtPath } from "./mcp-rt-path.js";
import type { AuthStorage } from "./model/auth-storage.js";
import { lazy } from "./util/lazy.js";
import { writeJsonAtomic } from "./util/write-json-atomic.js";
import { z } from "./util/zod.js";

const authFileSchema = lazy(() => z.object({ entries: z.record(z.string(), z.unknown()) }));

interface AuthFile {
  version: 1;
  entries: Record<string, string>;
}

type Read = { file: AuthFile; corrupt: boolean };

/** The file store as {@link createFileAuthStorage} returns it. */
export interface FileAuthStorage extends AuthStorage {
  /** The file the secrets live in. */
  readonly path: string;
}

/**
 * A file-backed {@link AuthStorage}: one JSON file (mode 0600, in a folder
 * created with mode 0700) holding every entry. Writes are atomic (temp file +
 * rename) and take a lock file beside it for the read-modify-write, so several
 * processes sharing the file (agents in two terminals signing in to different
 * servers) never lose each other's entries. A corrupt file reads as empty and
 * is moved aside to `<path>.corrupt` on the next write rather than destroyed.
 *
 * @param path the file. @default `~/.mcp-rt/auth.json`
 * @example
 * ```ts
 * const storage = createFileAuthStorage();
 * await storage.set("github-token", key);
 * ```
 */
export function createFileAuthStorage(path?: string): FileAuthStorage {
  return new FileStore(resolve(path ?? mcpRtPath("auth.json")));
}

class FileStore implements FileAuthStorage {
  readonly path: string;
  // Writes of this process run one after another; the lock file orders them with other processes.
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
  }

  async get(key: string): Promise<string | undefined> {
    const { file } = await this.#read();
    return Object.hasOwn(file.entries, key) ? file.entries[key] : undefined;
  }

  set(key: string, value: string): Promise<void> {
    if (typeof value !== "string") {
      return Promise.reject(new TypeError(`auth storage values must be strings, got ${typeof value}`));
    }
    return this.#update((entries) => {
      if (entries[key] === value) return false;
      entries[key] = value;
      return true;
    });
  }

  delete(key: string): Promise<void> {
    return this.#update((entries) => {
      if (!Object.hasOwn(entries, key)) return false;
      delete entries[key];
      return true;
    });
  }

  #update(change: (entries: Record<string, string>) => boolean): Promise<void> {
    const next = this.#queue.then(() =>
      withFileLock(`${this.path}.lock`, async () => {
        const { file, corrupt } = await this.#read();
        if (!change(file.entries)) return;
        if (corrupt) await rename(this.path, `${this.path}.corrupt`).catch(() => undefined);
        await writeJsonAtomic(this.path, file);
      }),
    );
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #read(): Promise<Read> {
    const file: AuthFile = { version: 1, entries: Object.create(null) as Record<string, string> };
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { file, corrupt: false };
      throw error;
    }
    let parsed: ReturnType<ReturnType<typeof authFileSchema>["safeParse"]>;
    try {
      parsed = authFileSchema().safeParse(JSON.parse(text));
    } catch {
      return { file, corrupt: true };
    }
    if (!parsed.success) return { file, corrupt: true };
    for (const [key, value] of Object.entries(parsed.data.entries)) {
      if (typeof value === "string") file.entries[key] = value;
    }
    return { file, corrupt: false };
  }
}
