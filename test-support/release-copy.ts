import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, symlink } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { LocalRegistry } from "./local-registry.js";

const run = promisify(execFile);
const repo = fileURLToPath(new URL("..", import.meta.url));
const changesetBin = createRequire(join(repo, "package.json")).resolve("@changesets/cli/bin.js");

/** A package of the workspace, as the release copy holds it. */
export interface ReleasedPackage {
  name: string;
  /** Its version in the repository, before `changeset version`. */
  versionBefore: string;
  /** Its version in the copy, after `changeset version`: the one published. */
  version: string;
  /** Its folder in the copy. */
  dir: string;
}

/** What {@link versionReleaseCopy} made. */
export interface ReleaseCopy {
  /** The copy's root. */
  root: string;
  /** The public packages, versioned, each with its `CHANGELOG.md`. */
  packages: ReleasedPackage[];
}

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/**
 * What a release would publish, made without touching the repository: the
 * workspace (root manifest, `pnpm-workspace.yaml`, `.changeset/`, each public
 * package with its built `dist`, each private one's manifest) copied to
 * `dir`, then `changeset version` run there, as the maintainer runs it. The
 * repository's pending changesets stay pending. Run `pnpm build` first.
 */
export async function versionReleaseCopy(dir: string): Promise<ReleaseCopy> {
  await mkdir(dir, { recursive: true });
  for (const file of ["package.json", "pnpm-workspace.yaml"]) await cp(join(repo, file), join(dir, file));
  await cp(join(repo, ".changeset"), join(dir, ".changeset"), { recursive: true });
  const before: Array<{ folder: string; manifest: Manifest }> = [];
  for (const folder of await workspaceFolders()) {
    const manifest = JSON.parse(await readFile(join(repo, folder, "package.json"), "utf8")) as Manifest;
    if (manifest.private) {
      // Only its manifest: a changeset may name it, and changesets must find it.
      await mkdir(join(dir, folder), { recursive: true });
      await cp(join(repo, folder, "package.json"), join(dir, folder, "package.json"));
      continue;
    }
    if (!existsSync(join(repo, folder, "dist"))) {
      throw new Error(`${manifest.name} is not built (no ${folder}/dist): run \`pnpm build\` first`);
    }
    await cp(join(repo, folder), join(dir, folder), {
      recursive: true,
      filter: (source) => basename(source) !== "node_modules",
    });
    before.push({ folder, manifest });
  }
  await run(process.execPath, [changesetBin, "version"], { cwd: dir, env: { ...process.env, CI: "true" } });
  await linkWorkspaceDependencies(dir, before);
  const packages: ReleasedPackage[] = [];
  for (const { folder, manifest } of before) {
    const after = JSON.parse(await readFile(join(dir, folder, "package.json"), "utf8")) as Manifest;
    packages.push({
      name: manifest.name,
      versionBefore: manifest.version,
      version: after.version,
      dir: join(dir, folder),
    });
  }
  return { root: dir, packages };
}

/**
 * Publishes every package of the copy with `pnpm publish` (which turns
 * `workspace:^` and `catalog:` ranges into versions), to `registry` only:
 * `--registry` is given on every publish, and the environment has no token.
 */
export async function publishReleaseCopy(copy: ReleaseCopy, registry: LocalRegistry): Promise<void> {
  for (const { dir } of copy.packages) {
    await run("pnpm", ["publish", "--registry", registry.url, "--no-git-checks"], {
      cwd: dir,
      env: registry.env,
    });
  }
}

/**
 * Links each `workspace:` dependency into the package's `node_modules`, as
 * `pnpm install` does: `pnpm publish` reads the version it writes in place of
 * `workspace:^` from the installed dependency.
 */
async function linkWorkspaceDependencies(
  dir: string,
  packages: ReadonlyArray<{ folder: string; manifest: Manifest }>,
): Promise<void> {
  const folderOf = new Map(packages.map(({ folder, manifest }) => [manifest.name, folder]));
  for (const { folder, manifest } of packages) {
    const { dependencies, devDependencies, peerDependencies, optionalDependencies } = manifest;
    const all = { ...devDependencies, ...peerDependencies, ...optionalDependencies, ...dependencies };
    for (const [name, range] of Object.entries(all)) {
      if (!range.startsWith("workspace:")) continue;
      const target = folderOf.get(name);
      if (target === undefined)
        throw new Error(`${manifest.name} depends on ${name}, which is not a public package`);
      const link = join(dir, folder, "node_modules", name);
      await mkdir(dirname(link), { recursive: true });
      await symlink(join(dir, target), link, "dir");
    }
  }
}

/** The workspace's package folders, relative to the repository, as `pnpm-workspace.yaml` lists them. */
async function workspaceFolders(): Promise<string[]> {
  const yaml = await readFile(join(repo, "pnpm-workspace.yaml"), "utf8");
  const list = /^packages:\n((?:[ \t]+-.*\n)+)/m.exec(yaml)?.[1] ?? "";
  const globs = [...list.matchAll(/-\s+["']?([^"'\s]+)/g)].map((match) => match[1]!);
  const folders: string[] = [];
  for (const glob of globs) {
    if (!glob.endsWith("/*")) {
      folders.push(glob);
      continue;
    }
    const parent = glob.slice(0, -2);
    for (const name of await readdir(join(repo, parent))) {
      if (existsSync(join(repo, parent, name, "package.json"))) folders.push(join(parent, name));
    }
  }
  return folders;
}
