import { type FSWatcher, statSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import { errorMessage } from "@mcp-rt/config/util";
import type { Logger } from "@mcp-rt/manager";

/** How long edits must be quiet before a change is reported (ms). */
export const CONFIG_WATCH_DEBOUNCE_MS = 200;

/** Options of {@link ConfigWatcher}. */
export interface ConfigWatcherOptions {
  /** Called once the watched files were quiet for `debounceMs` after a change. */
  onChange: () => void;
  /** @default 200 */
  debounceMs?: number;
  /** Where a folder that cannot be watched is reported (once per folder). */
  logger?: Logger;
}

/** One watched folder and the entries in it that lead to a watched file. */
interface Folder {
  watcher: FSWatcher;
  names: Set<string>;
}

/**
 * Watches a set of files, existing or not, without polling: it watches the
 * folder of each file (`fs.watch`, one watcher per folder), or while that
 * folder does not exist its nearest existing parent, and follows the folders
 * as they appear and go. Watching folders rather than files sees saves by
 * rename (an editor's atomic write replaces the file, and a watch on the old
 * file would go deaf), creations and deletions alike. A burst of events is
 * reported once, `debounceMs` after the last.
 */
export class ConfigWatcher {
  readonly #onChange: () => void;
  readonly #debounceMs: number;
  readonly #logger: Logger | undefined;
  readonly #folders = new Map<string, Folder>();
  readonly #unwatchable = new Set<string>();
  #files: string[] = [];
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: ConfigWatcherOptions) {
    this.#onChange = options.onChange;
    this.#debounceMs = options.debounceMs ?? CONFIG_WATCH_DEBOUNCE_MS;
    this.#logger = options.logger;
  }

  /** From now on watches exactly `files` (absolute paths); folders no longer needed are let go. */
  watch(files: Iterable<string>): void {
    if (this.#closed) return;
    this.#files = [...new Set(files)];
    this.#sync();
  }

  /** The folders watched now (for a UI, and to check that `close` let go of them). */
  get folders(): string[] {
    return [...this.#folders.keys()];
  }

  /** Stops every watcher and a pending report. Idempotent. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const folder of this.#folders.values()) folder.watcher.close();
    this.#folders.clear();
  }

  /** Watches the folder each file hangs from now; closes the watchers of folders no file needs. */
  #sync(): void {
    const wanted = new Map<string, Set<string>>();
    for (const file of this.#files) {
      const { folder, name } = watchPoint(file);
      const names = wanted.get(folder) ?? new Set<string>();
      names.add(name);
      wanted.set(folder, names);
    }
    for (const [path, folder] of this.#folders) {
      if (wanted.has(path)) continue;
      folder.watcher.close();
      this.#folders.delete(path);
    }
    for (const [path, names] of wanted) {
      const folder = this.#folders.get(path);
      if (folder) folder.names = names;
      else this.#open(path, names);
    }
  }

  #open(path: string, names: Set<string>): void {
    let watcher: FSWatcher;
    try {
      watcher = watch(path, (_event, filename) => this.#event(path, filename));
    } catch (error) {
      if (!this.#unwatchable.has(path)) {
        this.#unwatchable.add(path);
        this.#logger?.warn(`Cannot watch ${path} for MCP config changes (${errorMessage(error)})`);
      }
      return;
    }
    // A folder that went away (or a watcher the system dropped) is found again from its parent.
    watcher.on("error", () => this.#lost(path, watcher));
    this.#folders.set(path, { watcher, names });
  }

  #event(path: string, filename: string | Buffer | null): void {
    const folder = this.#folders.get(path);
    if (!folder || this.#closed) return;
    const name = filename?.toString();
    // Other files of a busy folder (the home folder) are none of our business, unless the folder itself went.
    if (name !== undefined && !folder.names.has(name) && isFolder(path)) return;
    this.#sync();
    this.#schedule();
  }

  #lost(path: string, watcher: FSWatcher): void {
    watcher.close();
    if (this.#folders.get(path)?.watcher === watcher) this.#folders.delete(path);
    if (this.#closed) return;
    this.#sync();
    this.#schedule();
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#closed) this.#onChange();
    }, this.#debounceMs);
    this.#timer.unref?.();
  }
}

/** The nearest existing folder on the way to `file`, and the entry in it that leads there. */
function watchPoint(file: string): { folder: string; name: string } {
  let child = file;
  let folder = dirname(file);
  while (!isFolder(folder) && dirname(folder) !== folder) {
    child = folder;
    folder = dirname(folder);
  }
  return { folder, name: basename(child) };
}

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}
