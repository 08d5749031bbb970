import { mkdir, open, readFile, stat, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** How long to wait for another holder before giving up. @default 10000 */
  timeoutMs?: number;
  /** A lock file older than this is taken over even when its holder still runs (it hung). @default 30000 */
  staleMs?: number;
  /** Mode of the folders created for the lock file. @default 0o700 */
  dirMode?: number;
}

const POLL_MS = 15;

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return errnoOf(error) === "EPERM";
  }
}

/**
 * Runs `task` while holding `lockPath`, a file created exclusively (`O_EXCL`)
 * and removed afterwards, so that processes sharing a file take turns at a
 * read-modify-write. A lock left behind by a process that died (its pid is
 * gone) or that is older than `staleMs` is taken over.
 *
 * @throws Error when another live holder keeps the lock for `timeoutMs`.
 */
export async function withFileLock<T>(
  lockPath: string,
  task: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const staleMs = options.staleMs ?? 30_000;
  const started = Date.now();
  await mkdir(dirname(lockPath), { recursive: true, mode: options.dirMode ?? 0o700 });
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockPath, "wx", 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`, "utf8");
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if (errnoOf(error) !== "EEXIST") throw error;
    }
    if (await isAbandoned(lockPath, staleMs)) {
      await unlink(lockPath).catch(() => undefined);
      continue;
    }
    if (Date.now() - started > timeoutMs) {
      const holder = (await readFile(lockPath, "utf8").catch(() => "")).trim();
      throw new Error(
        `${lockPath} is locked${holder ? ` by process ${holder}` : ""} for over ${timeoutMs} ms; ` +
          "if no mcp-rt process is running, delete the lock file",
      );
    }
    // Jitter keeps two waiting processes from retrying in lockstep.
    await sleep(POLL_MS + Math.floor(Math.random() * POLL_MS * Math.min(attempt + 1, 4)));
  }
  try {
    return await task();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

/** True when the lock's holder is gone, or it has held the lock for longer than `staleMs`. */
async function isAbandoned(lockPath: string, staleMs: number): Promise<boolean> {
  let text: string;
  let mtimeMs: number;
  try {
    [text, { mtimeMs }] = await Promise.all([readFile(lockPath, "utf8"), stat(lockPath)]);
  } catch {
    // Released meanwhile: retry at once.
    return false;
  }
  if (Date.now() - mtimeMs > staleMs) return true;
  const pid = Number.parseInt(text, 10);
  // A lock file still being written has no pid yet; give its writer a moment.
  if (!Number.isInteger(pid) || pid <= 0) return Date.now() - mtimeMs > 1000;
  return !isAlive(pid);
}
