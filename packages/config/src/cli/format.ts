import { isAbsolute, relative, sep } from "node:path";

/** Where paths are shown relative to. */
export interface PathContext {
  cwd: string;
  homeDir: string;
}

/** A path as a person reads it: relative inside the project, `~/…` inside the home folder. */
export function displayPath(path: string, context: PathContext): string {
  const inProject = relative(context.cwd, path);
  if (inProject === "") return ".";
  if (!inProject.startsWith("..") && !isAbsolute(inProject)) return inProject;
  const inHome = relative(context.homeDir, path);
  if (inHome !== "" && !inHome.startsWith("..") && !isAbsolute(inHome)) return `~${sep}${inHome}`;
  return path;
}

/** Left-aligned columns separated by two spaces; the last column is not padded. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** "1 server" / "2 servers"; `many` for irregular plurals. */
export function plural(count: number, noun: string, many = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : many}`;
}
