import { isAbsolute, relative, sep } from "node:path";

/** Where {@link displayPath} shows paths relative to. */
export interface PathContext {
  /** The project folder: paths inside it are shown relative to it. */
  cwd: string;
  /** The user's home: other paths inside it are shown as `~/…`. */
  homeDir: string;
}

/**
 * A path as a person reads it: relative inside the project (`.` for the
 * project folder itself), `~/…` inside the home folder, else absolute.
 */
export function displayPath(path: string, context: PathContext): string {
  const inProject = relative(context.cwd, path);
  if (inProject === "") return ".";
  if (isInside(inProject)) return inProject;
  const inHome = relative(context.homeDir, path);
  if (inHome !== "" && isInside(inHome)) return `~${sep}${inHome}`;
  return path;
}

// `relative` leaves the folder with `..` or, on another Windows drive, answers an absolute path;
// a name that merely starts with two dots (`..env`) is still inside.
function isInside(relativePath: string): boolean {
  return relativePath !== ".." && !relativePath.startsWith(`..${sep}`) && !isAbsolute(relativePath);
}
