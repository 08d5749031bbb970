import { resolveProjectDir } from "../trust-store.js";
import type { DiscoveredServer, LoadConfigsOptions, LoadConfigsResult, ProjectTrust } from "../types.js";
import { displayPath } from "../util/display-path.js";
import { plural } from "../util/plural.js";
import { approvalSummary, templateOf, whatItRuns } from "./approval-summary.js";
import { formatTable } from "./format.js";
import { transportOf } from "./server-inventory.js";

/** What `trust` and `untrust` need from the outside world. */
export interface TrustCommandIo {
  load(cwd: string, options: LoadConfigsOptions): Promise<LoadConfigsResult>;
  /** The entries as written, so a value a `${…}` expansion changed is shown as written. */
  discover?(cwd: string, options: LoadConfigsOptions): Promise<DiscoveredServer[]>;
  trust: ProjectTrust;
  homeDir: string;
}

/** What a trust command did, in words, and whether it worked. */
export interface CommandOutcome {
  text: string;
  exitCode: number;
}

/**
 * Approves the project's current project-level servers: the folder and hash
 * `loadAllMCPConfigs` asked the trust store about (`result.projectTrust`), so
 * what is approved is exactly what a session checks.
 */
export async function trustCommand(
  cwd: string,
  options: LoadConfigsOptions,
  io: TrustCommandIo,
): Promise<CommandOutcome> {
  const [result, discovered] = await Promise.all([
    io.load(cwd, { ...options, trust: io.trust }),
    io.discover ? io.discover(cwd, options).catch(() => []) : Promise.resolve([]),
  ]);
  const project = await resolveProjectDir(cwd);
  const question = result.projectTrust;
  if (!question) {
    return { text: `No project-level MCP servers to approve in ${project}.\n`, exitCode: 0 };
  }
  const servers = question.approved
    ? Object.entries(result.sources)
        .filter(([, source]) => source.level === "project")
        .map(([name, source]) => ({
          name,
          source,
          config: result.configs[name],
          envFile: result.envFiles?.[name],
        }))
    : result.needsApproval;
  if (!question.approved) await io.trust.approve(question.projectDir, question.hash);
  const context = { cwd, homeDir: io.homeDir };
  const rows = servers.map((entry) => [
    entry.name,
    transportOf(entry.config) ?? "-",
    displayPath(entry.source.path, context),
    whatItRuns(entry.config, templateOf(entry, discovered)),
  ]);
  const extra = [
    ...servers.flatMap((entry) =>
      entry.envFile === undefined
        ? []
        : [`${entry.name} reads the env file ${displayPath(entry.envFile, context)}`],
    ),
    ...approvalSummary({ ...result, needsApproval: [] }, context),
  ];
  const table = [
    ...formatTable(["NAME", "TRANSPORT", "FILE", "RUNS"], rows).split("\n"),
    ...(extra.length > 0 ? ["", ...extra] : []),
  ]
    .map((line) => (line === "" ? line : `  ${line}`))
    .join("\n");
  const head = question.approved
    ? `The ${plural(rows.length, "project-level server")} of ${project} ${rows.length === 1 ? "was" : "were"} already approved:`
    : `Approved ${plural(rows.length, "project-level server")} of ${project}:`;
  return {
    text: `${head}\n\n${table}\n\nThey start in new sessions. If the project's server configs change, you will be asked again.\n`,
    exitCode: 0,
  };
}

/** Forgets the approval of the project's servers. */
export async function untrustCommand(
  cwd: string,
  io: Pick<TrustCommandIo, "trust">,
): Promise<CommandOutcome> {
  const project = await resolveProjectDir(cwd);
  await io.trust.revoke(project);
  return {
    text: `The project-level MCP servers of ${project} are no longer approved; they wait for approval again.\n`,
    exitCode: 0,
  };
}
