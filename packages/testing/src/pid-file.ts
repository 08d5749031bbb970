import { readFileSync } from "node:fs";

/** One line of a fixture's pid file. */
export interface PidFileEntry {
  pid: number;
  /** `server`: a fixture process; `grandchild`: a process a fixture spawned. */
  role: "server" | "grandchild";
}

/**
 * Reads a pid file written by fixtures started with `pidFile` (one
 * `<pid> <role>` line per process, appended on each start). A missing file
 * means nothing was started yet and gives `[]`; a malformed line throws.
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
    const match = /^(\d+)(?: (server|grandchild))?$/.exec(line.trim());
    if (!match) throw new Error(`${path}:${index + 1}: expected "<pid> server|grandchild", got "${line}"`);
    entries.push({ pid: Number(match[1]), role: (match[2] ?? "server") as PidFileEntry["role"] });
  }
  return entries;
}

/** Every pid in a fixture pid file (servers and grandchildren), in the order written. */
export function readPidFile(path: string): number[] {
  return readPidFileEntries(path).map((entry) => entry.pid);
}
