import {
  type LoadConfigsOptions,
  type LoadConfigsResult,
  loadAllMCPConfigs,
  type ProjectTrust,
} from "@mcp-rt/manager";

/** What discovery asked the trust store about a project, and its answer. */
export interface TrustProbe {
  /** The discovery result, with the real trust store's answer applied. */
  discovery: LoadConfigsResult;
  /** The folder and hash discovery asked about; absent when the project has no project-level servers. */
  asked?: { projectDir: string; hash: string; approved: boolean };
}

/**
 * Runs discovery with a trust store that records the question it is asked, so
 * what `/mcp trust` approves is exactly what a session checks (the same folder
 * key and hash), without knowing how the hash is made.
 */
export async function probeProjectTrust(
  cwd: string,
  options: LoadConfigsOptions,
  trust: ProjectTrust,
): Promise<TrustProbe> {
  let asked: TrustProbe["asked"];
  const recorder: ProjectTrust = {
    async isApproved(projectDir, hash) {
      const approved = await trust.isApproved(projectDir, hash);
      asked = { projectDir, hash, approved };
      return approved;
    },
    approve: (projectDir, hash) => trust.approve(projectDir, hash),
    revoke: (projectDir) => trust.revoke(projectDir),
  };
  const discovery = await loadAllMCPConfigs(cwd, { ...options, trust: recorder });
  return asked ? { discovery, asked } : { discovery };
}
