// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` placeholders in fixture configs are part of what is tested
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import {
  type AuthStorage,
  type LoadConfigsOptions,
  type LoadConfigsResult,
  loadAllMCPConfigs,
  type ProjectTrust,
  type SourceMeta,
} from "@mcp-rt/config";
import { afterEach, beforeAll, beforeEach, expect } from "vitest";
import type { ListJson } from "../src/cli/list-command.js";

// The set-up config's tests share: temporary folders, a fixture home and
// project, fakes of the seams, and the built `mcp-rt-config` bin.

export { useTempDir } from "../../../test-support/temp-dir.js";

/** A temporary home folder and project folder, for one test. */
export interface FixtureTree {
  root: string;
  home: string;
  project: string;
  /** Writes a file under the home folder (creating folders); returns its path. */
  writeHome(relative: string, content: string | object): Promise<string>;
  /** Writes a file under the project folder (creating folders); returns its path. */
  writeProject(relative: string, content: string | object): Promise<string>;
  /**
   * `loadAllMCPConfigs(project)` with this home, an empty environment, Linux
   * and `trust: "all"` (these loads are about reading files; project trust
   * has tests of its own), unless overridden.
   */
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
    // The real path, as a process started in the project sees its folder.
    const root = await realpath(await mkdtemp(join(tmpdir(), "mcp-rt-config-")));
    made.push(root);
    const home = join(root, "home");
    const project = join(root, "work", "project");
    await mkdir(home, { recursive: true });
    await mkdir(project, { recursive: true });
    return {
      root,
      home,
      project,
      writeHome: (relative, content) => writeAt(home, relative, content),
      writeProject: (relative, content) => writeAt(project, relative, content),
      load: (options = {}) =>
        loadAllMCPConfigs(project, { homeDir: home, env: {}, platform: "linux", trust: "all", ...options }),
    };
  };
}

/** Writes a file (a string as is, anything else as JSON), creating its folders; returns its path. */
export async function writeAt(base: string, relative: string, content: string | object): Promise<string> {
  const path = join(base, relative);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return path;
}

/** The folder of a fixture file. */
export type Place = "home" | "project";

/** Writes a file under the tree's home or project folder. */
export const writeIn = (tree: FixtureTree, place: Place, relative: string, content: string | object) =>
  place === "home" ? tree.writeHome(relative, content) : tree.writeProject(relative, content);

/** A healthy server in another file, which must load whatever else is broken. */
export async function withSurvivor(tree: FixtureTree, brokenRelative: string): Promise<void> {
  const other = brokenRelative === ".cursor/mcp.json" ? ".mcp-rt/mcp.json" : ".cursor/mcp.json";
  await tree.writeHome(other, { mcpServers: { survivor: { command: "still-here" } } });
}

/** `text` as a regular expression that matches exactly it. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A `SourceMeta`, positionally. */
export const sourceMeta = (
  provider: string,
  providerName: string,
  path: string,
  level: SourceMeta["level"],
): SourceMeta => ({ provider, providerName, path, level });

/** A trust store that answers every question with `answer` and records what it was asked. */
export function recordingTrust(answer: boolean): ProjectTrust & { asked: Array<[string, string]> } {
  const asked: Array<[string, string]> = [];
  return {
    asked,
    isApproved: async (projectDir, hash) => {
      asked.push([projectDir, hash]);
      return answer;
    },
    approve: async () => undefined,
    revoke: async () => undefined,
  };
}

/** An `AuthStorage` in a Map. */
export function memoryAuth(entries: Record<string, string> = {}): AuthStorage {
  const map = new Map(Object.entries(entries));
  return {
    get: async (key) => map.get(key),
    set: async (key, value) => void map.set(key, value),
    delete: async (key) => void map.delete(key),
  };
}

/** The variables the clients' documented examples refer to. */
const DOCS_ENV = {
  API_KEY: "k-api",
  DB_CONNECTION_STRING: "postgres://db",
  EXTERNAL_API_KEY: "k-ext",
  EXTERNAL_SERVICE_TOKEN: "k-svc",
  PWD: "/somewhere",
  AUTH_TOKEN: "k-auth",
  MY_SERVICE_TOKEN: "k-cursor",
  MCP_CLIENT_ID: "client-123",
  MCP_CLIENT_SECRET: "secret-456",
  FIGMA_OAUTH_TOKEN: "k-figma",
  FIGMA_EXTRA: "extra",
  API_KEY2: "k-2",
};

/** Loads a tree written as the clients' documentation shows, with the variables and inputs it uses. */
export function loadAsDocumented(tree: FixtureTree): Promise<LoadConfigsResult> {
  return tree.load({ env: DOCS_ENV, resolveInput: async (id) => `answer:${id}` });
}

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Builds this package so `dist/cli.js` is current. Test files run in parallel
 * workers, so a lock folder keeps two builds from writing `dist` at once (the
 * later one then has nothing to do).
 */
async function buildPackage(): Promise<void> {
  const id = createHash("sha256").update(packageDir).digest("hex").slice(0, 12);
  const lock = join(tmpdir(), `mcp-rt-config-build-${id}.lock`);
  const acquire = (): Promise<boolean> =>
    mkdir(lock).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "EEXIST") return false;
        throw error;
      },
    );
  const deadline = Date.now() + 120_000;
  while (!(await acquire())) {
    if (Date.now() > deadline) throw new Error(`${lock} held for 2 minutes; remove it if no build runs`);
    await sleep(200);
  }
  try {
    const build = spawnSync("pnpm", ["--filter", "@mcp-rt/config", "build"], {
      cwd: packageDir,
      encoding: "utf8",
    });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Secrets in the CLI fixture, which no output may show unless asked to. */
export const CLI_SECRETS = {
  GH_TOKEN: "ghp_env_secret_123",
  PROJECT_KEY: "sk-project-secret-456",
  URL_TOKEN: "url-secret-789",
  EXA_KEY: "exa-secret-000",
  BAD_URL_TOKEN: "bad-url-secret-111",
  /** In the environment as `OPAQUE_ARG`: a secret with no telling name or shape. */
  OPAQUE: "plain-opaque-222",
} as const;

/** One run of the bin. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built bin over a fixture home and project, fresh for each test. */
export interface CliFixture {
  readonly home: string;
  readonly project: string;
  /** Runs `mcp-rt-config` in the project, with only the fixture's environment. */
  cli(...args: string[]): CliRun;
  /** {@link CliFixture.cli} with these variables added to the fixture's environment. */
  cliWithEnv(env: Record<string, string>, ...args: string[]): CliRun;
  /** `list --json` as name → `provider:status` of each entry. */
  statuses(): Record<string, string[]>;
}

/**
 * Builds the bin once per file and gives each test a home and project with
 * user-level servers (one disabled, one shadowed, an Exa one) and project
 * servers awaiting approval, an invalid one among them.
 */
export function useCliFixture(): CliFixture {
  const trees = useFixtureTrees();
  let tree: FixtureTree | undefined;
  beforeAll(buildPackage, 150_000);
  beforeEach(async () => {
    tree = await trees();
    const { URL_TOKEN, EXA_KEY, PROJECT_KEY, BAD_URL_TOKEN } = CLI_SECRETS;
    await tree.writeHome(".cursor/mcp.json", {
      mcpServers: {
        github: {
          url: "https://api.github.example/mcp",
          headers: { Authorization: "Bearer ${env:GH_TOKEN}" },
        },
        docs: { url: `https://docs.example/mcp?token=${URL_TOKEN}&lang=en` },
        old: { command: "old-server" },
        exa: { url: `https://mcp.exa.ai/mcp?exaApiKey=${EXA_KEY}` },
      },
    });
    await tree.writeHome(".mcp-rt/mcp.json", { mcpServers: {}, disabledServers: ["old"] });
    await tree.writeProject(".mcp.json", {
      mcpServers: {
        lint: { command: "npx", args: ["lint-mcp"], env: { API_KEY: PROJECT_KEY } },
        docs: { command: "docs-local" },
        broken: { command: 42 },
        badurl: { url: `api.example/mcp?token=${BAD_URL_TOKEN}`, headers: { "X-Key": 12345678901 } },
      },
    });
  });
  const current = (): FixtureTree => {
    if (!tree) throw new Error("useCliFixture: the fixture exists only while a test runs");
    return tree;
  };
  const cliWithEnv = (extra: Record<string, string>, ...args: string[]): CliRun => {
    const { home, project } = current();
    const result = spawnSync(process.execPath, [join(packageDir, "dist", "cli.js"), ...args], {
      cwd: project,
      encoding: "utf8",
      // Only what the fixture needs: no real config of the machine leaks in.
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_CONFIG_HOME: join(home, ".config"),
        GH_TOKEN: CLI_SECRETS.GH_TOKEN,
        OPAQUE_ARG: CLI_SECRETS.OPAQUE,
        ...extra,
      },
      timeout: 20_000,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const cli = (...args: string[]): CliRun => cliWithEnv({}, ...args);
  return {
    get home() {
      return current().home;
    },
    get project() {
      return current().project;
    },
    cli,
    cliWithEnv,
    statuses() {
      const json = JSON.parse(cli("list", "--json").stdout) as ListJson;
      const out: Record<string, string[]> = {};
      for (const server of json.servers) {
        out[server.name] = [...(out[server.name] ?? []), `${server.provider}:${server.status}`];
      }
      return out;
    },
  };
}
