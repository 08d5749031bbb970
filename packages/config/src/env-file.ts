import { createHash } from "node:crypto";
import { realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { parseEnv } from "node:util";
import { type InterpolationOptions, interpolateString, type MissingVariable } from "./interpolate.js";
import type { SourceMeta } from "./model/source-meta.js";
import { readTextFile } from "./read-config-file.js";
import type { DiscoveryContext } from "./types.js";
import { setOwn } from "./util/describe-value.js";
import { errorMessage } from "./util/error-message.js";

/** An entry's `envFile` after `${…}` expansion: an absolute path, and the variables it lacked. */
export interface EnvFilePath {
  path: string;
  missing: MissingVariable[];
}

/** Expands an entry's `envFile` and makes it absolute (relative to the project folder). */
export async function expandEnvFilePath(
  written: string,
  ctx: Pick<DiscoveryContext, "cwd">,
  interpolation: InterpolationOptions,
): Promise<EnvFilePath> {
  const expanded = await interpolateString(written, interpolation);
  const missing = expanded.missing.map(
    (variable): MissingVariable => ({
      variable,
      field: "envFile",
      placeholder: expanded.written?.[variable] ?? `\${${variable}}`,
    }),
  );
  return { path: resolve(ctx.cwd, expanded.value), missing };
}

/**
 * Why an entry may not read `path`, or `undefined` when it may: a project's
 * entry reads only files inside the project folder, a user's entry only files
 * inside the home or the project folder. Symlinks are followed, so a link in
 * the project to `~/.aws/credentials` counts as what it points at.
 */
export async function envFileOutside(
  path: string,
  level: SourceMeta["level"],
  ctx: Pick<DiscoveryContext, "cwd" | "homeDir">,
): Promise<string | undefined> {
  const real = await realOrSelf(path);
  const project = await realOrSelf(ctx.cwd);
  if (isInside(project, real)) return undefined;
  if (level === "user" && isInside(await realOrSelf(ctx.homeDir), real)) return undefined;
  const seen = real === resolve(path) ? "" : ` (it leads to ${real})`;
  return level === "project"
    ? `${path} is outside the project folder ${ctx.cwd}${seen}; a project's config may only read an env file inside the project`
    : `${path} is outside your home folder and the project folder${seen}; a user-level entry may only read an env file inside one of them`;
}

/** True when `path` (resolved) lies inside the project folder, symlinks followed. */
export async function envFileInProject(path: string, ctx: Pick<DiscoveryContext, "cwd">): Promise<boolean> {
  return isInside(await realOrSelf(ctx.cwd), await realOrSelf(path));
}

/**
 * A digest of the file's bytes for project trust's hash (`missing` when it
 * does not exist). Only the digest is kept: nothing of the file is parsed,
 * used or shown.
 */
export async function envFileDigest(path: string): Promise<string> {
  // Read as readTextFile does: never waiting on a pipe, never a huge file.
  const read = await readTextFile(path);
  if (read.status === "missing") return "missing";
  if (read.status === "error") return "unreadable";
  return createHash("sha256").update(read.text).digest("hex");
}

/** The variables of a dotenv file, or why it could not be read. */
export async function readEnvFile(
  path: string,
): Promise<{ values: Record<string, string> } | { error: string }> {
  const read = await readTextFile(path);
  if (read.status === "missing") return { error: "it does not exist" };
  if (read.status === "error") return { error: `it ${read.problem.replace(/;.*$/, "")}` };
  try {
    const values = parseEnv(read.text);
    const clean: Record<string, string> = {};
    for (const [key, value] of Object.entries(values)) if (value !== undefined) setOwn(clean, key, value);
    return { values: clean };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

async function realOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return resolve(path);
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
