import type { Stats } from "node:fs";
import { chmod, lstat, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
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
 * Why a folder (the parent, or a session's folder in it) is not this user's
 * private folder, or undefined when it is: not a link, a folder, owned by
 * this user, opened by no one else (mode ≤ 0700). A folder in a shared temp
 * folder can be made by anyone, and a link can point anywhere.
 */
function notPrivate(stat: Stats, what: string): string | undefined {
  if (stat.isSymbolicLink()) return `${what} is a link`;
  if (!stat.isDirectory()) return `${what} is not a folder`;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `${what} belongs to another user`;
  if ((stat.mode & 0o077) !== 0)
    return `${what} can be opened by other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * Makes a session's private folder (mode 0700) under `parent`, named after
 * this process so that {@link sweepSpillFolders} can tell a crashed run's
 * folder from a live one. `parent` is created when missing (0700; one of
 * this user's that others can open is closed to them first); one that is a
 * link, or another user's folder, is refused.
 */
export async function createSpillFolder(parent: string): Promise<string> {
  await mkdir(parent, { recursive: true, mode: 0o700 });
  let stat = await lstat(parent);
  const uid = process.getuid?.();
  if (stat.isDirectory() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o077) !== 0) {
    await chmod(parent, 0o700);
    stat = await lstat(parent);
  }
  const problem = notPrivate(stat, parent);
  if (problem !== undefined) throw new Error(problem);
  // mkdtemp makes the folder 0700.
  return mkdtemp(join(parent, `session-${process.pid}-`));
}

/** What {@link sweepSpillFolders} did. */
export interface SpillSweep {
  /** The folders it removed. */
  removed: string[];
  /** What it left alone, and why (the parent, or a session's folder that is not this user's private folder). */
  skipped: string[];
}

/**
 * Removes the folders under `parent` that sessions of processes no longer
 * running left behind (a crash, a kill, an exit without `dispose()`). It
 * makes the checks creation makes, on the parent and on each folder (not a
 * link, this user's, mode ≤ 0700), and removes without following links; what
 * fails them is left alone and named in `skipped`. Best-effort: a folder that
 * cannot be removed now is tried at the next start.
 */
export async function sweepSpillFolders(parent: string): Promise<SpillSweep> {
  const sweep: SpillSweep = { removed: [], skipped: [] };
  let names: string[];
  try {
    const problem = notPrivate(await lstat(parent), parent);
    if (problem !== undefined) {
      sweep.skipped.push(problem);
      return sweep;
    }
    names = await readdir(parent);
  } catch {
    return sweep; // no parent yet: nothing ever spilled here
  }
  for (const name of names) {
    const pid = SESSION_FOLDER.exec(name)?.[1];
    if (pid === undefined || isRunning(Number(pid))) continue;
    const folder = join(parent, name);
    try {
      const problem = notPrivate(await lstat(folder), folder);
      if (problem !== undefined) {
        sweep.skipped.push(problem);
        continue;
      }
      // `rm` removes a link it meets inside as a link; it never follows one.
      await rm(folder, { recursive: true, force: true });
      sweep.removed.push(folder);
    } catch {
      // Left for the next start.
    }
  }
  return sweep;
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
