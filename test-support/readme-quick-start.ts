import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { transformWithOxc } from "vite";
import { afterEach, beforeEach } from "vitest";

const packagesDir = fileURLToPath(new URL("../packages/", import.meta.url));
const vitestDir = dirname(createRequire(import.meta.url).resolve("vitest/package.json"));

/**
 * The first fenced block of `lang` under a README's "## Quick start" heading.
 * Throws when there is none, so a renamed heading fails the test instead of
 * testing nothing.
 */
export function quickStartBlock(markdown: string, lang = "ts"): string {
  const section = markdown.split(/^## Quick start$/m)[1]?.split(/^## /m)[0] ?? "";
  const fence = "```";
  const block = section.split(`${fence}${lang}\n`)[1]?.split(fence)[0];
  if (block === undefined) throw new Error(`the README has no \`\`\`${lang} block under "## Quick start"`);
  return block;
}

/** How a quick start runs: as a script (`node quick-start.mjs`) or as a test file (`vitest run`). */
export type QuickStartRunner = "node" | "vitest";

/** Options of {@link useQuickStart}. */
export interface QuickStartOptions {
  /** The README, e.g. `new URL("../README.md", import.meta.url)`. */
  readme: URL;
  /** The fenced block's language. @default "ts" */
  lang?: string;
  /** @default "node" */
  runner?: QuickStartRunner;
  /**
   * Packages to install into the folder besides mcp-rt's own, as package name →
   * folder (say, a server the quick start starts with `npx`). Their bins are
   * linked and they are listed in the folder's package.json, as `npm install`
   * would leave them, so `npx -y <name>` finds them without the network.
   */
  install?: Record<string, string>;
}

/** What one run of a quick start printed, and how it ended. */
export interface QuickStartRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** With the `vitest` runner: each test of the quick start and how it ended. */
  tests: Array<{ name: string; status: string }>;
  /**
   * Whether a process the run started in its process group was still alive
   * after the run ended (it is killed then). Servers started in a group of
   * their own are not seen here; pass a marker in `env` to find those.
   */
  leftBehind: boolean;
}

/** Options of {@link QuickStart.run}. */
export interface QuickStartRunOptions {
  /** Code to run instead of the README's, for a variant of it. */
  code?: string;
  /** Variables besides `PATH` and `HOME` (the run gets no others). */
  env?: Record<string, string | undefined>;
  /** The run, and every process in its group, is killed after this. @default 60000 */
  timeoutMs?: number;
}

/** A README quick start, set up in a temp folder of its own. */
export interface QuickStart {
  /** The block as the README has it. */
  readonly code: string;
  /** How many lines the block has (a README quick start holds at most 15). */
  readonly lines: number;
  /** The project folder the quick start runs in (its cwd); put the files it expects here. */
  readonly dir: string;
  /** `HOME` of the run, inside the temp folder, so user-level files stay there. */
  readonly home: string;
  /** Runs the quick start to its end. */
  run(options?: QuickStartRunOptions): Promise<QuickStartRun>;
}

/**
 * Runs a package README's quick start for real: a fresh temp folder per test
 * where mcp-rt's packages are installed (linked to their built `dist`, as a
 * user's `npm install` would give them), the block written out as the user
 * would save it, and `node` (or `vitest`) run on it with only `PATH` and a
 * temp `HOME`. Call it at the top level of a test file; the folder, and any
 * run still going, is removed after each test.
 *
 * @example
 * const quickStart = useQuickStart({ readme: new URL("../README.md", import.meta.url) });
 * it("runs", async () => {
 *   const { stdout } = await quickStart().run();
 * });
 */
export function useQuickStart(options: QuickStartOptions): () => QuickStart {
  const code = quickStartBlock(readFileSync(options.readme, "utf8"), options.lang);
  const runner = options.runner ?? "node";
  let root: string | undefined;
  let current: QuickStart | undefined;
  const running = new Set<ChildProcess>();

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "mcp-rt-quick-start-"));
    const dir = join(root, "app");
    const home = join(root, "home");
    await mkdir(home);
    await install(dir, runner === "vitest" ? { ...options.install, vitest: vitestDir } : options.install);
    current = {
      code,
      lines: code.trimEnd().split("\n").length,
      dir,
      home,
      run: (runOptions = {}) => run(dir, home, runner, runOptions, running),
    };
  });
  afterEach(async () => {
    for (const child of running) killGroup(child.pid);
    running.clear();
    if (root) await rm(root, { recursive: true, force: true });
    root = undefined;
    current = undefined;
  });

  return () => {
    if (!current) throw new Error("useQuickStart(): the quick start exists only while a test runs");
    return current;
  };

  async function run(
    dir: string,
    home: string,
    how: QuickStartRunner,
    { code: source = code, env = {}, timeoutMs = 60_000 }: QuickStartRunOptions,
    children: Set<ChildProcess>,
  ): Promise<QuickStartRun> {
    for (const name of new Set(source.match(/(?<=["'])@mcp-rt\/[\w-]+/g))) {
      const dist = join(packagesDir, name.slice("@mcp-rt/".length), "dist");
      if (!existsSync(dist)) throw new Error(`${name} is not built (no ${dist}): run \`pnpm build\` first`);
    }
    let args: string[];
    if (how === "node") {
      // Node 20 cannot run TypeScript; strip the types and nothing else.
      const js = await transformWithOxc(source, "quick-start.ts", {
        lang: "ts",
        target: "esnext",
        typescript: { onlyRemoveTypeImports: true },
      });
      await writeFile(join(dir, "quick-start.mjs"), js.code);
      args = ["quick-start.mjs"];
    } else {
      await writeFile(join(dir, "quick-start.test.ts"), source);
      const report = join(dir, "vitest-report.json");
      args = [join(vitestDir, "vitest.mjs"), "run", "--reporter=json", `--outputFile=${report}`];
    }
    const child = spawn(process.execPath, args, {
      cwd: dir,
      // Its own process group, so a run that overstays is killed with everything it started.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH,
        HOME: home,
        NO_COLOR: "1",
        // `npx` may use what is installed in the folder, but never the registry.
        npm_config_offline: "true",
        npm_config_update_notifier: "false",
        ...env,
      },
    });
    children.add(child);
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => killGroup(child.pid), timeoutMs);
    const [exitCode, signal] = (await once(child, "close")) as [number | null, NodeJS.Signals | null];
    clearTimeout(timer);
    children.delete(child);
    const leftBehind = killGroup(child.pid);
    const tests = how === "vitest" ? await vitestResults(join(dir, "vitest-report.json")) : [];
    return { exitCode, signal, stdout, stderr, tests, leftBehind };
  }
}

/** Makes `dir` look like a project where mcp-rt's packages, and `extra`, were installed. */
async function install(dir: string, extra: Record<string, string> = {}): Promise<void> {
  const modules = join(dir, "node_modules");
  await mkdir(join(modules, "@mcp-rt"), { recursive: true });
  await mkdir(join(modules, ".bin"));
  const dependencies: Record<string, string> = {};
  for (const name of ["config", "client", "cache", "manager", "session", "testing"]) {
    await symlink(join(packagesDir, name), join(modules, "@mcp-rt", name), "dir");
  }
  for (const [name, folder] of Object.entries(extra)) {
    await mkdir(dirname(join(modules, name)), { recursive: true });
    await symlink(folder, join(modules, name), "dir");
    const pkg = JSON.parse(await readFile(join(folder, "package.json"), "utf8")) as {
      version: string;
      bin?: string | Record<string, string>;
    };
    dependencies[name] = pkg.version;
    const bins = typeof pkg.bin === "string" ? { [name.split("/").pop()!]: pkg.bin } : (pkg.bin ?? {});
    for (const [bin, file] of Object.entries(bins))
      await symlink(join(folder, file), join(modules, ".bin", bin));
  }
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "quick-start", private: true, type: "module", dependencies }, null, 2),
  );
}

/** SIGKILLs a run's process group; true if anyone was left in it. */
function killGroup(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, "SIGKILL");
    return true;
  } catch {
    return false; // the group is gone
  }
}

/** The tests in a vitest JSON report; none when the run died before writing it. */
async function vitestResults(path: string): Promise<QuickStartRun["tests"]> {
  if (!existsSync(path)) return [];
  const report = JSON.parse(await readFile(path, "utf8")) as {
    testResults: Array<{ assertionResults: Array<{ fullName: string; status: string }> }>;
  };
  return report.testResults.flatMap((file) =>
    file.assertionResults.map(({ fullName, status }) => ({ name: fullName, status })),
  );
}
