// Project trust (docs/architecture.md, "Project trust"): what a project's approval covers (its hash), asking
// the store whether it is approved, and what the project would change; the store itself is `trust-store.ts`.

import { createHash } from "node:crypto";
import { envFileDigest, envFileInProject, expandEnvFilePath } from "./env-file.js";
import type { ConfigIssue } from "./model/config-issue.js";
import type { SourceMeta } from "./model/source-meta.js";
import { interpolationOf, type SettledServers } from "./settle-servers.js";
import type {
  DiscoveryContext,
  DiscoveryOutcome,
  LoadConfigsResult,
  ProjectChange,
  ProjectSetting,
  ProjectTrust,
  ProjectTrustQuestion,
} from "./types.js";
import { errorMessage } from "./util/error-message.js";

/**
 * JSON with object keys sorted at every depth, so two configs that differ only
 * in key order (or in `undefined` fields) serialize the same.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)));
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = sortKeys(item);
  }
  return sorted;
}

/** The parts of a discovered server entry the trust hash reads. */
export interface TrustHashEntry {
  name: string;
  /** The entry as written in its file (before `${…}` expansion). */
  config: unknown;
  source: Pick<SourceMeta, "provider" | "level">;
  /** A dotenv file the entry reads (VS Code, Cursor `envFile`): its path is part of what is approved. */
  envFile?: string;
}

/** An env file inside the project that an approval covers, by the digest of its bytes. */
export interface TrustHashEnvFile {
  server: string;
  provider: string;
  /** The file, absolute. */
  path: string;
  /** SHA-256 (hex) of its bytes, or `missing`. */
  digest: string;
}

/** What else a project's approval covers besides its server entries. */
export interface TrustHashExtras {
  /** The project files' settings that change which servers run (`disabledServers`, `mcp.excluded`…). */
  settings?: readonly ProjectSetting[];
  /** The env files inside the project that entries read, project-level or not. */
  envFiles?: readonly TrustHashEnvFile[];
}

/**
 * The hash a project's approval is keyed by (project trust): SHA-256 (hex) of the
 * canonical, key-sorted JSON of the project-level entries among `servers`
 * (provider, name and config as written in the project's files, before `${…}`
 * expansion), plus the project files' settings and the digests of the env
 * files inside the project that entries read (`extras`). So any change to a
 * project file's servers, settings or env files asks again, while a
 * rotated token in the user's environment, the user's own files, and session
 * options such as a `reserve` rule do not. `loadAllMCPConfigs` and the
 * `mcp-rt-config trust` command both use it.
 *
 * @example
 * ```ts
 * const hash = hashProjectServers(discovered);
 * await trust.approve(projectDir, hash);
 * ```
 */
export function hashProjectServers(servers: readonly TrustHashEntry[], extras: TrustHashExtras = {}): string {
  const entries = servers
    .filter((server) => server.source.level === "project")
    .map((server) =>
      server.envFile === undefined
        ? ([server.source.provider, server.name, server.config] as const)
        : ([server.source.provider, server.name, server.config, server.envFile] as const),
    )
    .sort(([p1, n1], [p2, n2]) => (p1 === p2 ? compare(n1, n2) : compare(p1, p2)));
  const settings = [...(extras.settings ?? [])]
    .map((setting) => [setting.path, setting.key, setting.value] as const)
    .sort(([p1, k1], [p2, k2]) => (p1 === p2 ? compare(k1, k2) : compare(p1, p2)));
  const envFiles = [...(extras.envFiles ?? [])]
    .map((file) => [file.provider, file.server, file.path, file.digest] as const)
    .sort((a, b) => compare(a.join("\0"), b.join("\0")));
  // Without extras the hash is the entries' alone, so approvals made before extras counted still hold.
  const hashed = settings.length === 0 && envFiles.length === 0 ? entries : { entries, settings, envFiles };
  return createHash("sha256").update(canonicalJson(hashed)).digest("hex");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An env file inside the project that an entry reads: project content, covered by the approval. */
export type ProjectEnvFile = Omit<TrustHashEnvFile, "digest">;

/**
 * The env files inside the project that entries would read: every
 * project-level entry's, and a user-level entry's that points into the
 * project (a `.env` of the repository is the project's content too, unless
 * the project folder holds the home folder itself). The loader does not read
 * them before the project is approved.
 */
export async function projectEnvFiles(
  discovery: DiscoveryOutcome,
  ctx: DiscoveryContext,
): Promise<ProjectEnvFile[]> {
  const readers = discovery.servers.filter((server) => server.envFile !== undefined);
  if (readers.length === 0) return [];
  const homeInProject = await envFileInProject(ctx.homeDir, ctx);
  const found = await Promise.all(
    readers.map(async (server): Promise<ProjectEnvFile | undefined> => {
      if (server.envFile === undefined) return undefined;
      if (server.source.level === "user" && homeInProject) return undefined;
      const { path, missing } = await expandEnvFilePath(server.envFile, ctx, interpolationOf(server, ctx));
      if (missing.length > 0 || !(await envFileInProject(path, ctx))) return undefined;
      return { server: server.name, provider: server.source.provider, path };
    }),
  );
  return found.filter((file) => file !== undefined);
}

/** Options of {@link askProjectTrust}. */
export interface AskProjectTrustOptions {
  /** The user's decisions; none means nothing is approved. */
  trust: ProjectTrust | undefined;
  ctx: DiscoveryContext;
  /** Every file's entries, the project's included. */
  discovery: DiscoveryOutcome;
  /** The env files inside the project that entries read ({@link projectEnvFiles}). */
  envFiles: readonly ProjectEnvFile[];
  /** What runs without the project's files. */
  mine: SettledServers;
  /** What would run with them. */
  wouldBe: SettledServers;
}

/** The answer about a project: what was asked, and what waits for approval until it is yes. */
export interface ProjectTrustAnswer {
  approved: boolean;
  asked: ProjectTrustQuestion;
  /** A store that could not answer (then the project counts as not approved). */
  errors: ConfigIssue[];
  /** The project's servers of `wouldBe`. */
  needsApproval: LoadConfigsResult["needsApproval"];
  /** What the project's files would change in `mine`. */
  pendingChanges: ProjectChange[];
}

/**
 * Asks `trust` whether the project's current set is approved: its
 * project-level entries as written, its files' settings, and the bytes of the
 * env files inside it. No trust store means nothing is approved; a store
 * that fails counts as "not approved", reported as an error. Asks nothing
 * (`undefined`) when the project's files would start, change and read nothing.
 */
export async function askProjectTrust(
  options: AskProjectTrustOptions,
): Promise<ProjectTrustAnswer | undefined> {
  const { trust, ctx, discovery, wouldBe } = options;
  const waiting = wouldBe.accepted.filter((server) => server.discovered.source.level === "project");
  const pendingChanges = projectChanges(options);
  if (waiting.length === 0 && pendingChanges.length === 0 && options.envFiles.length === 0) return undefined;

  const envFiles = await Promise.all(
    options.envFiles.map(async (file) => ({ ...file, digest: await envFileDigest(file.path) })),
  );
  const hash = hashProjectServers(discovery.servers, { settings: discovery.projectSettings, envFiles });
  const errors: ConfigIssue[] = [];
  let approved = false;
  if (trust !== undefined) {
    try {
      approved = (await trust.isApproved(ctx.cwd, hash)) === true;
    } catch (error) {
      errors.push({
        path: ctx.cwd,
        message: `could not check whether this project's servers are approved (${errorMessage(error)}); they wait for approval`,
      });
    }
  }
  const needsApproval = waiting.map((server) => ({
    name: server.name,
    source: server.discovered.source,
    config: server.config,
    ...(server.envFile !== undefined ? { envFile: server.envFile } : {}),
  }));
  return { approved, asked: { projectDir: ctx.cwd, hash, approved }, errors, needsApproval, pendingChanges };
}

/** What the project's files would change in the servers the user configured (`mine`). */
function projectChanges({ mine, wouldBe, discovery, ctx }: AskProjectTrustOptions): ProjectChange[] {
  const wouldRun = new Map(wouldBe.accepted.map((server) => [server.name, server]));
  const where = (name: string): string =>
    discovery.servers.find((server) => server.name === name && server.source.level === "project")?.source
      .path ??
    discovery.projectSettings.find((setting) => Array.isArray(setting.value) && setting.value.includes(name))
      ?.path ??
    discovery.projectSettings[0]?.path ??
    ctx.cwd;
  const changes: ProjectChange[] = [];
  for (const server of mine.accepted) {
    const { name } = server;
    const source = server.discovered.source;
    const next = wouldRun.get(name);
    if (next === undefined) changes.push({ name, change: "disable", source, path: where(name) });
    else if (next.discovered.source.level === "project") {
      changes.push({ name, change: "replace", source, path: next.discovered.source.path });
    } else if (canonicalJson(next.config) !== canonicalJson(server.config)) {
      changes.push({ name, change: "pin", source, path: where(name) });
    }
  }
  for (const entry of mine.disabled) {
    const next = wouldRun.get(entry.name);
    if (next !== undefined && next.discovered.source.level === "user") {
      changes.push({ name: entry.name, change: "enable", source: entry.source, path: where(entry.name) });
    }
  }
  return changes;
}
