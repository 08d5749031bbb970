import { isAbsolute, relative, sep } from "node:path";

/** A path as a person reads it: relative inside the project, `~/…` inside the home folder. */
export function displayPath(path: string, where: { cwd: string; homeDir: string }): string {
  const inProject = relative(where.cwd, path);
  if (inProject !== "" && !inProject.startsWith("..") && !isAbsolute(inProject)) return inProject;
  const inHome = relative(where.homeDir, path);
  if (inHome !== "" && !inHome.startsWith("..") && !isAbsolute(inHome)) return `~${sep}${inHome}`;
  return path;
}
