import {
  type MCPToolApprovals,
  type ToolApprovalIdentity,
  type ToolApprovalRecord,
  withApproved,
  withDeclined,
} from "@mcp-rt/cache";
import type {
  Logger,
  MCPPromptDefinition,
  MCPResourceDefinition,
  MCPResourceTemplateDefinition,
  MCPServerConfig,
  MCPToolDefinition,
  SourceMeta,
} from "@mcp-rt/config";
import type { TaskGroup } from "@mcp-rt/config/util";
import {
  type ApprovalBasis,
  type ApprovalVerdict,
  checkToolApprovals,
  type MCPHeldTool,
} from "./approval-check.js";
import { approvalIdentity, approvalTarget } from "./approval-identity.js";
import { type ApprovalPolicies, serverPolicies } from "./approval-policy.js";
import { diffToolDefinitions } from "./definition-diff.js";
import type { MCPHeldToolReview, MCPToolsHeld } from "./tool-review.js";

/** One server as the keeper judges it: its config and source, and what it offers now. */
export interface JudgedServer {
  name: string;
  config: MCPServerConfig;
  source: SourceMeta | undefined;
  /** Its `serverInfo.name` (live, or from the cache entry). */
  serverInfoName: string | undefined;
  /** The tools the config lets through (`filterServerTools`). */
  tools: readonly MCPToolDefinition[];
  prompts: readonly MCPPromptDefinition[];
  resources: readonly MCPResourceDefinition[];
  resourceTemplates: readonly MCPResourceTemplateDefinition[];
  instructions: string | undefined;
  /** Distinctive tool names of the other servers, asked for only when a tool is read. */
  otherTools: () => ReadonlySet<string>;
}

/** Options of {@link ToolApprovalKeeper}. */
export interface ApprovalKeeperOptions {
  /** The approvals store; `null`: none (poisoning is still checked, tool changes are not). */
  store: MCPToolApprovals | null;
  /** The host's policies. */
  policies: ApprovalPolicies;
  /** Told once of each held definition (the manager's `tools:held`). */
  onHeld: (event: MCPToolsHeld) => void;
  tasks: Pick<TaskGroup, "add">;
  logger: Logger | undefined;
}

const keyOf = (identity: ToolApprovalIdentity): string =>
  JSON.stringify([identity.server, identity.source, identity.level]);

/**
 * The manager's side of approved tool definitions (docs/architecture.md,
 * "Approved tool definitions"): it reads each server's approvals when an
 * attempt starts, judges every list a server gives (live or cached,
 * `checkToolApprovals`), records what is approved at first sight or under
 * `"allow"`, tells listeners once of each held change (`tools:held`, with
 * its diff), logs weak poisoning signs once, and records the user's
 * decisions (`approve`, `keep`). Without a store it keeps this process's
 * decisions in memory and checks poisoning only.
 */
export class ToolApprovalKeeper {
  readonly #store: MCPToolApprovals | null;
  readonly #policies: ApprovalPolicies;
  readonly #onHeld: (event: MCPToolsHeld) => void;
  readonly #tasks: Pick<TaskGroup, "add">;
  readonly #logger: Logger | undefined;
  /** What each server's approvals are, as last read or decided here. */
  readonly #known = new Map<string, { basis: ApprovalBasis; version: number }>();
  readonly #reads = new Map<string, Promise<void>>();
  /** Held definitions listeners were told of (`key\0tool\0digest`): each change asks once. */
  readonly #asked = new Set<string>();
  /** Findings and failures logged already: each once. */
  readonly #logged = new Set<string>();

  constructor(options: ApprovalKeeperOptions) {
    this.#store = options.store;
    this.#policies = options.policies;
    this.#onHeld = options.onHeld;
    this.#tasks = options.tasks;
    this.#logger = options.logger;
  }

  /** Where approvals are kept, for messages; `undefined` without a store. */
  get where(): string | undefined {
    return this.#store?.where;
  }

  /** The server's policies. */
  policies(config: MCPServerConfig, source: SourceMeta | undefined): ApprovalPolicies {
    return serverPolicies(this.#policies, config, source);
  }

  /**
   * Reads the server's approvals (again, with `fresh`: another agent may have
   * approved since); resolves once they are known. Never rejects: a store
   * that cannot be read leaves tool changes unchecked for the server, once
   * logged.
   */
  read(name: string, source: SourceMeta | undefined, fresh = true): Promise<void> {
    const identity = approvalIdentity(name, source);
    const key = keyOf(identity);
    const under = this.#reads.get(key);
    if (under && !fresh) return under;
    const store = this.#store;
    if (!store) {
      if (!this.#known.has(key))
        this.#known.set(key, { basis: { drift: false, record: undefined }, version: 0 });
      return Promise.resolve();
    }
    const version = this.#known.get(key)?.version ?? 0;
    const read = store.read(identity).then((found) => {
      // A decision taken here while the store answered is newer than its answer.
      if ((this.#known.get(key)?.version ?? 0) !== version) return;
      let basis: ApprovalBasis;
      if (found.status === "found") basis = { drift: true, record: found.record };
      else if (found.status === "refused") basis = { drift: true, record: undefined, refused: found.reason };
      else {
        basis = { drift: false, record: undefined };
        this.#logOnce(
          `failed\0${key}`,
          `Tool approvals of MCP server "${name}" could not be read (${found.reason}); its tool changes are not checked at this start`,
        );
      }
      this.#known.set(key, { basis, version });
    });
    this.#reads.set(key, read);
    return read;
  }

  /**
   * Judges what the server offers now (see `checkToolApprovals`), records
   * what the verdict approves, tells listeners of held tools they were not
   * told of (`tools:held`), and logs weak signs of poisoning once. The
   * server's approvals must have been {@link read}.
   */
  judge(server: JudgedServer): ApprovalVerdict {
    const identity = approvalIdentity(server.name, server.source);
    const key = keyOf(identity);
    const basis = this.#known.get(key)?.basis ?? { drift: false, record: undefined };
    const policies = this.policies(server.config, server.source);
    const target = approvalTarget(server.config);
    const verdict = checkToolApprovals({
      tools: server.tools,
      basis,
      target,
      serverInfoName: server.serverInfoName,
      ...policies,
      prompts: server.prompts,
      resources: server.resources,
      resourceTemplates: server.resourceTemplates,
      instructions: server.instructions,
      otherTools: server.otherTools,
    });
    if (verdict.record) this.#remember(server, verdict.record);
    this.#tellHeld(server, identity, verdict);
    this.#logFindings(server.name, key, verdict);
    return verdict;
  }

  /**
   * The user approves `tools` (held tools of the server): recorded, with
   * what the server runs and calls itself now. Rejects when the store
   * cannot be written (nothing changes then).
   */
  async approve(server: JudgedServer, tools: readonly MCPToolDefinition[]): Promise<void> {
    const identity = approvalIdentity(server.name, server.source);
    const change = { target: approvalTarget(server.config), serverInfoName: server.serverInfoName, tools };
    const record = this.#store ? await this.#store.approve(identity, change) : undefined;
    this.#set(identity, (known) => record ?? withApproved(known.record, change));
  }

  /**
   * The user keeps holding `tools` as they are: recorded, so that the same
   * definitions are held again without asking. Rejects when the store
   * cannot be written.
   */
  async keep(server: JudgedServer, tools: readonly MCPToolDefinition[]): Promise<void> {
    const identity = approvalIdentity(server.name, server.source);
    const blank = (): ToolApprovalRecord => ({
      target: approvalTarget(server.config),
      tools: {},
      approvedAt: new Date().toISOString(),
    });
    const stored = this.#store ? await this.#store.decline(identity, tools) : undefined;
    this.#set(identity, (known) => stored ?? withDeclined(known.record ?? blank(), tools));
  }

  /** The review of `held` (the server's held tools now): each with the definition approved before and its diff. */
  async review(server: JudgedServer, held: readonly MCPHeldTool[]): Promise<MCPHeldToolReview[]> {
    const approved = this.#store
      ? await this.#store.definitions(approvalIdentity(server.name, server.source))
      : {};
    return held.map((tool) => {
      const before = approved[tool.name];
      return {
        ...tool,
        ...(before ? { approved: before } : {}),
        diff: diffToolDefinitions(before, tool.definition),
      };
    });
  }

  /** Records `tools` approved without asking (first sight, `"allow"`): in memory at once, in the store in the background. */
  #remember(server: JudgedServer, tools: readonly MCPToolDefinition[]): void {
    const identity = approvalIdentity(server.name, server.source);
    const change = { target: approvalTarget(server.config), serverInfoName: server.serverInfoName, tools };
    this.#set(identity, (known) => withApproved(known.record, change));
    // The store logs a failed write; memory keeps the decision for this process.
    if (this.#store) this.#tasks.add(this.#store.approve(identity, change).catch(() => {}));
  }

  /** Replaces the record of `identity` in memory (a newer decision than any read under way). */
  #set(identity: ToolApprovalIdentity, next: (known: ApprovalBasis) => ToolApprovalRecord): void {
    const key = keyOf(identity);
    const known = this.#known.get(key) ?? {
      basis: { drift: this.#store !== null, record: undefined },
      version: 0,
    };
    const basis: ApprovalBasis = { drift: known.basis.drift, record: next(known.basis) };
    this.#known.set(key, { basis, version: known.version + 1 });
  }

  /** `tools:held` for the held tools listeners were not told of yet (not those kept on purpose), with their diffs. */
  #tellHeld(server: JudgedServer, identity: ToolApprovalIdentity, verdict: ApprovalVerdict): void {
    const key = keyOf(identity);
    const fresh = verdict.held.filter((tool) => {
      const asked = `${key}\0${tool.name}\0${tool.digest}`;
      if (tool.kept || this.#asked.has(asked)) return false;
      this.#asked.add(asked);
      return true;
    });
    if (fresh.length === 0) return;
    const { toolChanges } = this.policies(server.config, server.source);
    this.#tasks.add(
      this.review(server, fresh)
        .catch(() =>
          fresh.map((tool) => ({ ...tool, diff: diffToolDefinitions(undefined, tool.definition) })),
        )
        .then((held) =>
          this.#onHeld({
            name: server.name,
            toolChanges,
            held,
            ...(verdict.serverChange ? { serverChange: verdict.serverChange } : {}),
          }),
        ),
    );
  }

  /** Signs of poisoning in what stays exposed (weak ones, or strong ones under `"warn"`): logged once each. */
  #logFindings(name: string, key: string, verdict: ApprovalVerdict): void {
    const heldTools = new Set(verdict.held.map((tool) => tool.name));
    for (const finding of verdict.findings) {
      if (finding.subject === "tool" && finding.name !== undefined && heldTools.has(finding.name)) continue;
      if (finding.subject === "instructions" && verdict.withholdInstructions) continue;
      const what =
        finding.subject === "instructions" ? "its instructions" : `${finding.subject} "${finding.name}"`;
      this.#logOnce(
        `finding\0${key}\0${finding.subject}\0${finding.name}\0${finding.path}\0${finding.rule}`,
        `MCP server "${name}": ${what} ${finding.path} may be poisoned (${finding.rule}): ${finding.reason}: ${finding.excerpt}`,
      );
    }
    if (verdict.withholdInstructions) {
      this.#logOnce(
        `instructions\0${key}`,
        `MCP server "${name}": its instructions are withheld from the model: they carry a strong sign of poisoning (set poisoning: "warn" for this server to pass them)`,
      );
    }
  }

  #logOnce(key: string, message: string): void {
    if (this.#logged.has(key)) return;
    this.#logged.add(key);
    this.#logger?.warn(message);
  }
}
