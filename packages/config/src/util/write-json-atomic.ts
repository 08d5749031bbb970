import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Options of {@link writeJsonAtomic}. */
export interface WriteJsonAtomicOptions {
  /** The file's mode. @default 0o600 */
  mode?: number;
  /** The mode of folders it creates; folders that exist keep theirs. @default 0o700 */
  dirMode?: number;
}

/**
 * Writes `value` as pretty-printed JSON (two-space indent, final newline) so
 * that a reader sees the old file or the new one, never half of it: a temp
 * file in the same folder, synced, then renamed over `path`. Missing folders
 * are created. The file gets `mode` whatever the umask, and nothing of the
 * file it replaces; on failure the temp file is removed and the error thrown.
 */
export async function writeJsonAtomic(
  path: string,
  value: unknown,
  options: WriteJsonAtomicOptions = {},
): Promise<void> {
  const mode = options.mode ?? 0o600;
  const folder = dirname(path);
  await mkdir(folder, { recursive: true, mode: options.dirMode ?? 0o700 });
  const temp = join(folder, `.${basename(path)}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", mode);
  try {
    await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`, "utf8");
    await handle.sync();
    await handle.close();
    // The mode given to `open` is masked by the umask.
    await chmod(temp, mode);
    await rename(temp, path);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
