import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type LoadConfigsOptions, type LoadConfigsResult, loadAllMCPConfigs } from "@mcp-rt/config";
import { afterEach, expect } from "vitest";

/** A temporary home folder and project folder, for one test. */
export interface FixtureTree {
  root: string;
  home: string;
  project: string;
  /** Writes a file under the home folder (creating folders); returns its path. */
  writeHome(relative: string, content: string | object): Promise<string>;
  /** Writes a file under the project folder (creating folders); returns its path. */
  writeProject(relative: string, content: string | object): Promise<string>;
  /** `loadAllMCPConfigs(project)` with this home, an empty environment and Linux, unless overridden. */
  load(options?: LoadConfigsOptions): Promise<LoadConfigsResult>;
}

/**
 * Registers cleanup and returns a factory of fixture trees: each test gets
 * fresh temporary folders, removed (and checked gone) after it.
 */
export function useFixtureTrees(): () => Promise<FixtureTree> {
  const made: string[] = [];
  afterEach(async () => {
    const roots = made.splice(0);
    await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
    for (const root of roots) expect(existsSync(root)).toBe(false);
  });
  return async () => {
    const root = await mkdtemp(join(tmpdir(), "mcp-rt-config-"));
    made.push(root);
    const home = join(root, "home");
    const project = join(root, "work", "project");
    await mkdir(home, { recursive: true });
    await mkdir(project, { recursive: true });
    const write = async (base: string, relative: string, content: string | object) => {
      const path = join(base, relative);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
      return path;
    };
    return {
      root,
      home,
      project,
      writeHome: (relative, content) => write(home, relative, content),
      writeProject: (relative, content) => write(project, relative, content),
      load: (options = {}) =>
        loadAllMCPConfigs(project, { homeDir: home, env: {}, platform: "linux", ...options }),
    };
  };
}
