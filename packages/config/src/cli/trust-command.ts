import { redactServerConfig } from "../redact.js";
import { resolveProjectDir } from "../trust-store.js";
import type { LoadConfigsOptions, LoadConfigsResult, ProjectTrust } from "../types.js";
import { displayPath, formatTable, plural } from "./format.js";
import { configOf, transportOf } from "./server-inventory.js";

/** What `trust` and `untrust` need from the outside world. */
export interface TrustCommandIo {
  load(cwd: string, options: LoadConfigsOptions): Promise<LoadConfigsResult>;
  trust: ProjectTrust;
  homeDir: string;
}

/** What a trust command did, in words, and whether it worked. */
export interface CommandOutcome {
  text: string;
  exitCode: number;
}

/**
 * Approves the project's current project-level servers. The project folder and
 * hash are the ones `loadAllMCPConfigs` asks the trust store about, captured by
 * a recording `ProjectTrust`, so what is approved is exactly what a session checks.
 */
export async function trustCommand(
  cwd: string,
  options: LoadConfigsOptions,
  io: TrustCommandIo,
): Promise<CommandOutcome> {
  let asked: { projectDir: string; hash: string } | undefined;
  const recorder: ProjectTrust = {
    isApproved: async (projectDir, hash) => {
      asked = { projectDir, hash };
      return false;
    },
    approve: async () => undefined,
    revoke: async () => undefined,
  };
  const result = await io.load(cwd, { ...options, trust: recorder });
  const project = await resolveProjectDir(cwd);
  if (!asked || result.needsApproval.length === 0) {
    return { text: `No project-level MCP servers to approve in ${project}.\n`, exitCode: 0 };
  }
  await io.trust.approve(asked.projectDir, asked.hash);
  const context = { cwd, homeDir: io.homeDir };
  const rows = result.needsApproval.map((entry) => {
    const { name, source } = entry;
    const config = redactServerConfig(configOf(entry) ?? result.configs[name] ?? {}) as Record<
      string,
      unknown
    >;
    const what =
      typeof config.command === "string"
        ? [config.command, ...(Array.isArray(config.args) ? config.args : [])].join(" ")
        : String(config.url ?? "");
    return [name, transportOf(config) ?? "-", displayPath(source.path, context), what];
  });
  const table = formatTable(["NAME", "TRANSPORT", "FILE", "RUNS"], rows);
  return {
    text:
      `Approved ${plural(rows.length, "project-level server")} of ${project}:\n\n` +
      `${table
        .split("\n")
        .map((line) => `  ${line}`)
        .join("\n")}\n\n` +
      "They start in new sessions. If the project's server configs change, you will be asked again.\n",
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
