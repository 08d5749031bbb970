import type { LoadConfigsResult, MCPServerConfig, ProjectTrust } from "@mcp-rt/manager";
import type { ConfigScope } from "./native-config-writer.js";

/** Options of {@link ProjectTrustPolicy.keeping}. */
export interface KeepingTrustOptions<T> {
  /** The level of the file the edit writes. */
  scope: ConfigScope;
  /** The user's own edit of a native file. */
  edit: () => Promise<T>;
  /** The servers the user wrote in this very edit (e.g. `/mcp add`). @default [] */
  written?: readonly string[];
}

/**
 * How `/mcp` edits keep a project's approval: the session's trust store (when
 * project trust is on) and the rule for renewing an approval across an edit
 * the user makes themselves.
 */
export class ProjectTrustPolicy {
  /** The session's trust store; undefined when every project server is trusted (`trust: "all"`). */
  readonly store: ProjectTrust | undefined;
  readonly #discover: () => Promise<LoadConfigsResult>;

  constructor(options: {
    trust: ProjectTrust | "all" | undefined;
    discover: () => Promise<LoadConfigsResult>;
  }) {
    this.store = options.trust === "all" ? undefined : options.trust;
    this.#discover = options.discover;
  }

  /**
   * Runs the user's own edit of a native file. An edit of the project's file
   * changes the hash of the project's servers; an approval that held before
   * (or a project that had nothing to approve) is renewed only when what
   * would run afterwards is what ran before, plus the servers the user wrote
   * in this very edit (`written`, e.g. `/mcp add`). A project server the edit
   * brings back (`/mcp enable` of one the project disabled) is never approved
   * on the user's behalf: it waits for `/mcp trust`, which shows what it runs.
   */
  async keeping<T>({ scope, edit, written = [] }: KeepingTrustOptions<T>): Promise<T> {
    const trust = this.store;
    if (!trust || scope !== "project") return edit();
    const before = await this.#discover();
    const result = await edit();
    if (before.projectTrust !== undefined && !before.projectTrust.approved) return result;
    const after = await this.#discover();
    const asked = after.projectTrust;
    if (asked === undefined || asked.approved) return result;
    const ran = new Map(
      Object.entries(before.configs)
        .filter(([name]) => before.sources[name]?.level === "project")
        .map(([name, config]) => [name, comparable(config)]),
    );
    const reviewed = after.needsApproval.every(
      (entry) => written.includes(entry.name) || ran.get(entry.name) === comparable(entry.config),
    );
    if (reviewed) await trust.approve(asked.projectDir, asked.hash);
    return result;
  }
}

/** A config as compared across an edit: a pin (`alwaysLoad`) is not a change to approve. */
function comparable(config: MCPServerConfig | undefined): string {
  if (config === undefined) return "";
  const { alwaysLoad: _pin, ...rest } = config;
  return JSON.stringify(rest);
}
