import { appendFileSync, readFileSync } from "node:fs";

/** The roles of a pid file's lines that stand for a process. */
const PROCESS_ROLES: ReadonlySet<PidFileEntry["role"]> = new Set(["server", "grandchild"]);

/** One line of a fixture's pid file. */
export interface PidFileEntry {
  pid: number;
  /**
   * `server`: a fixture process started; `grandchild`: a process a fixture spawned;
   * `probe`: that server received a `server/discover` request; `initialize`: it received
   * an `initialize` request; `list`: it received a `tools/list` request (one per page).
   */
  role: "server" | "grandchild" | "probe" | "initialize" | "list";
}

/** Appends one `<pid> <role>` line to a pid file. */
export function appendPidFileEntry(
  path: string,
  role: PidFileEntry["role"],
  pid: number = process.pid,
): void {
  appendFileSync(path, `${pid} ${role}\n`);
}

/**
 * Reads a pid file written by fixtures started with `pidFile` (one
 * `<pid> <role>` line per process, appended on each start, and one per
 * `server/discover`, `initialize` or `tools/list` it received). A missing file means
 * nothing was started yet and gives `[]`; a malformed line throws.
 */
export function readPidFileEntries(path: string): PidFileEntry[] {
  let content: string;
  try {
    content = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const entries: PidFileEntry[] = [];
  for (const [index, line] of content.split("\n").entries()) {
    if (line.trim() === "") continue;
    const match = /^(\d+)(?: (server|grandchild|probe|initialize|list))?$/.exec(line.trim());
    if (!match) {
      throw new Error(
        `${path}:${index + 1}: expected "<pid> server|grandchild|probe|initialize|list", got "${line}"`,
      );
    }
    entries.push({ pid: Number(match[1]), role: (match[2] ?? "server") as PidFileEntry["role"] });
  }
  return entries;
}

/**
 * Every process in a fixture pid file (servers and grandchildren), in the
 * order started; the `probe`, `initialize` and `list` lines are left out.
 */
export function readPidFile(path: string): number[] {
  return readPidFileEntries(path)
    .filter((entry) => PROCESS_ROLES.has(entry.role))
    .map((entry) => entry.pid);
}
