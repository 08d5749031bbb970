import type { DiscoveryOutcome } from "./discover-servers.js";
import { envFileDigest, envFileInProject, expandEnvFilePath } from "./env-file.js";
import { interpolationOf } from "./prepare-server.js";
import { canonicalJson, hashProjectServers, type TrustHashEnvFile } from "./project-trust-hash.js";
import type { ConfigIssue } from "./server-config.js";
import type { SettledServers } from "./settle-servers.js";
import type { DiscoveryContext, ProjectChange, ProjectTrust, ProjectTrustQuestion } from "./types.js";
import { errorMessage } from "./util/error-message.js";

/** An env file inside the project that an entry reads: project content, covered by the approval. */
export type ProjectEnvFile = Omit<TrustHashEnvFile, "digest">;

/**
 * The env files inside the project that entries would read: every
 * project-level entry's, and a user-level entry's that points into the
 * project (a `.env` of the repository is the project's content too, unless
 * the project folder holds the home folder itself).
 */
export async function projectEnvFiles(
  discovery: DiscoveryOutcome,
  ctx: DiscoveryContext,
): Promise<ProjectEnvFile[]> {
  const homeInProject = await envFileInProject(ctx.homeDir, ctx);
  const found = await Promise.all(
    discovery.servers.map(async (server): Promise<ProjectEnvFile | undefined> => {
      if (server.envFile === undefined) return undefined;
      if (server.source.level === "user" && homeInProject) return undefined;
      const { path, missing } = await expandEnvFilePath(server.envFile, ctx, interpolationOf(server, ctx));
      if (missing.length > 0 || !(await envFileInProject(path, ctx))) return undefined;
      return { server: server.name, provider: server.source.provider, path };
    }),
  );
  return found.filter((file) => file !== undefined);
}

/** The answer about a project, and the problem asking it, if any. */
export interface TrustAnswer {
  approved: boolean;
  asked: ProjectTrustQuestion;
  errors: ConfigIssue[];
}

/**
 * Asks `trust` whether the project's current set is approved: its
 * project-level entries as written, its files' settings, and the bytes of the
 * env files inside it. No trust store means nothing is approved; a store
 * that fails counts as "not approved", reported as an error.
 */
export async function askProjectTrust(options: {
  trust: ProjectTrust | undefined;
  ctx: DiscoveryContext;
  discovery: DiscoveryOutcome;
  envFiles: readonly ProjectEnvFile[];
}): Promise<TrustAnswer> {
  const { trust, ctx, discovery } = options;
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
  return { approved, asked: { projectDir: ctx.cwd, hash, approved }, errors };
}

/**
 * What the project's files would change in the servers the user configured,
 * comparing what runs without them (`mine`) with what would run with them.
 */
export function projectChanges(options: {
  mine: SettledServers;
  wouldBe: SettledServers;
  discovery: DiscoveryOutcome;
  ctx: DiscoveryContext;
}): ProjectChange[] {
  const { mine, wouldBe, discovery, ctx } = options;
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
