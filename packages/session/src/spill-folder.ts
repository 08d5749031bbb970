import { lstat, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

/** A session's folder under the parent: `session-<pid>-<6 random characters>`, as `mkdtemp` makes it. */
const SESSION_FOLDER = /^session-(\d+)-[A-Za-z0-9]{6}$/;

/**
 * Where the sessions of this OS user keep their spilled results unless
 * `resultSpill.dir` says otherwise: `mcp-rt-results-<uid>` in the OS temp
 * folder, one per user so that users of one machine never share it.
 */
export function defaultSpillDir(): string {
  return join(tmpdir(), `mcp-rt-results-${process.getuid?.() ?? userInfo().username}`);
}

/**
 * Makes a session's private folder (mode 0700) under `parent`, named after
 * this process so that {@link sweepSpillFolders} can tell a crashed run's
 * folder from a live one. `parent` is created when missing; one that is a
 * link, or another user's folder (a folder in a shared temp folder can be
 * made by anyone), is refused.
 */
export async function createSpillFolder(parent: string): Promise<string> {
  await mkdir(parent, { recursive: true, mode: 0o700 });
  const stat = await lstat(parent);
  if (!stat.isDirectory()) throw new Error(`${parent} is not a folder`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw new Error(`${parent} belongs to another user`);
  // mkdtemp makes the folder 0700.
  return mkdtemp(join(parent, `session-${process.pid}-`));
}

/**
 * Removes the folders under `parent` that sessions of processes no longer
 * running left behind (a crash, a kill, an exit without `dispose()`).
 * Best-effort: a folder that cannot be removed now is tried at the next start.
 * Returns the folders it removed.
 */
export async function sweepSpillFolders(parent: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return []; // no parent yet: nothing ever spilled here
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = SESSION_FOLDER.exec(name)?.[1];
    if (pid === undefined || isRunning(Number(pid))) continue;
    const folder = join(parent, name);
    try {
      await rm(folder, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      // Left for the next start.
    }
  }
  return removed;
}

/** Whether a process with this id runs (one of another user's counts: its folder is not ours to judge). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
