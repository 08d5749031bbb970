import type { InterpolationSyntax } from "./interpolate.js";
import type { ConfigIssue } from "./model/config-issue.js";
import type { MCPServerConfig } from "./model/server-config.js";
import type { SourceMeta } from "./model/source-meta.js";
import type { PolicyId } from "./policy/server-policy.js";

/** Where discovery looks: injected so tests can point it at a fixture home. */
export interface DiscoveryContext {
  /** The project folder. */
  cwd: string;
  /** The user's home folder. */
  homeDir: string;
  /** The environment used for `${VAR}` expansion and OS folder lookup. */
  env: Record<string, string | undefined>;
  /** The OS, which decides where app-config folders are. */
  platform: NodeJS.Platform;
  /**
   * `false`: do not read project-level files at all (`loadAllMCPConfigs`'
   * `enableProjectConfig`). Sources that ignore it still have their
   * project-level entries dropped by the loader. @default true
   */
  enableProjectConfig?: boolean;
  /**
   * A folder that stands in for the filesystem root, in addition to it, when
   * system files are looked up (the policies of mcp-rt, Claude Code and
   * Codex, Claude Code's `managed-mcp.json`): tests and containers point it
   * at a fixture. What is found there adds to what the real system paths
   * hold; it never hides them. @default none
   */
  systemRoot?: string;
}

/** How the loader expands `${…}` placeholders in one entry. */
export interface EntryInterpolation {
  /** The placeholder forms the provider's files use. @default "posix" */
  syntax: InterpolationSyntax;
  /** VS Code's `inputs` of the entry's file, by id (for `${input:id}`). */
  inputs?: Record<string, unknown>;
}

/** One server entry as a source found it, before validation. */
export interface DiscoveredServer {
  name: string;
  /**
   * The entry, mapped onto `MCPServerConfig` field names; validated later.
   * An entry that is not an object is passed on unchanged, so it still
   * shadows lower-priority entries and is reported as invalid.
   */
  config: unknown;
  source: SourceMeta;
  /** Placeholder expansion of this entry. @default `{ syntax: "posix" }` */
  interpolation?: EntryInterpolation;
  /**
   * A dotenv file whose variables are added under the entry's `env` (explicit
   * `env` values win), read after expansion; relative to the project folder.
   */
  envFile?: string;
  /**
   * The provider's own name of a mapped field, e.g. `{ url: "httpUrl" }`, so a
   * validation message can point at what the user actually wrote.
   */
  fieldNames?: Record<string, string>;
}

/** What a {@link CapabilitySource} found. */
export interface CapabilitySourceResult {
  /** Entries in precedence order: the first of two with the same name wins. */
  servers: DiscoveredServer[];
  /** Unreadable files, bad syntax, wrong shapes. */
  issues: ConfigIssue[];
  /**
   * Names this source turns off wherever they are defined (the native file's
   * `disabledServers`).
   */
  disabledServers?: string[];
  /**
   * Names this source marks `alwaysLoad` wherever they are defined (the
   * native file's `alwaysLoadServers`, written by `/mcp pin`).
   */
  alwaysLoadServers?: string[];
  /**
   * Settings of project-level files, outside the server map, that change
   * which servers run (the native `disabledServers`, Gemini's
   * `mcp.excluded`…), as written: project trust's hash covers them, so a
   * project that edits them is asked about again.
   */
  projectSettings?: ProjectSetting[];
}

/** One project-level setting a source reports (see `CapabilitySourceResult.projectSettings`). */
export interface ProjectSetting {
  /** The file it is in. */
  path: string;
  /** Where in the file, e.g. `disabledServers` or `mcp.excluded`. */
  key: string;
  /** The value as written. */
  value: unknown;
}

/** What `discoverServers` found: every entry of every source, highest precedence first, and what went wrong reading them. */
export interface DiscoveryOutcome {
  servers: DiscoveredServer[];
  issues: ConfigIssue[];
  /** Names some source turns off everywhere (the native `disabledServers`). */
  disabledServers: Set<string>;
  /** Every file the sources read or would read: their `paths`, and the files their entries and issues name. */
  files: Set<string>;
  /** Names some source marks `alwaysLoad` everywhere (the native `alwaysLoadServers`). */
  alwaysLoadServers: Set<string>;
  /** What the sources report of the project files' settings (empty with `enableProjectConfig: false`). */
  projectSettings: ProjectSetting[];
}

/** A place server configs come from: one per client whose files mcp-rt reads (`builtinSources` lists them). */
export interface CapabilitySource {
  /** Provider id, e.g. `cursor`. */
  id: string;
  /** Display name, e.g. `Cursor`. */
  name: string;
  /** Higher wins when two sources define the same server name. */
  priority: number;
  /** Reads the source's files. Never throws: problems come back as `issues`. */
  load(ctx: DiscoveryContext): Promise<CapabilitySourceResult>;
  /**
   * Every file `load(ctx)` reads or would read if it existed (absolute
   * paths), so that a session can watch them: one created later counts too.
   * Without it, a watcher only sees the files the source's entries and
   * issues name. Project-level files are left out with
   * `enableProjectConfig: false`.
   */
  paths?(ctx: DiscoveryContext): readonly string[] | Promise<readonly string[]>;
}

/**
 * The user's decision about a project's project-level servers: whether the
 * servers its own files define may start (`createTrustStore` keeps it on disk).
 */
export interface ProjectTrust {
  /** True when the user approved exactly this set of project servers. */
  isApproved(projectDir: string, hash: string): Promise<boolean>;
  /** Approve this project's current set of project servers. */
  approve(projectDir: string, hash: string): Promise<void>;
  /** Forget every approval of this project. */
  revoke(projectDir: string): Promise<void>;
}

/**
 * A caller's rule that holds a server back from starting (e.g. an agent with a
 * native integration for it): `undefined` lets it start; an answer keeps it
 * out, in `filtered`, with a short `reason` and any `keys` (such as API keys)
 * the caller wants from its config.
 *
 * @example
 * ```ts
 * const reserve: ReserveServer = ({ name }) => (name === "search" ? { reason: "native-search" } : undefined);
 * ```
 */
export type ReserveServer = (server: {
  name: string;
  /** The config after placeholder expansion, validated. */
  config: MCPServerConfig;
  source: SourceMeta;
}) => { reason: string; keys?: string[] } | undefined;

/** Options of `loadAllMCPConfigs`. */
export interface LoadConfigsOptions {
  /** `false` does not read project-level files at all. @default true */
  enableProjectConfig?: boolean;
  /**
   * The caller's rule that holds servers back from starting, asked once per
   * server after placeholder expansion and validation, before project trust.
   * A server it answers for goes to `filtered` with the answer's `reason`
   * and `keys`. @default none: every valid server goes on
   */
  reserve?: ReserveServer;
  /** @default os.homedir() */
  homeDir?: string;
  /** @default process.env */
  env?: Record<string, string | undefined>;
  /** @default process.platform */
  platform?: NodeJS.Platform;
  /** @default `builtinSources`, one per client whose files mcp-rt reads */
  sources?: CapabilitySource[];
  /**
   * Project trust: project-level servers start only once the user approved
   * the project's set of them in this store (`createTrustStore()`); until
   * then they come back in `needsApproval`, and the project's files change
   * nothing the user configured. Without a store nothing is approved: a
   * cloned repository runs nothing on its own. `"all"` trusts every project
   * on purpose (the design document's behaviour).
   * @default none: project-level servers wait in `needsApproval`
   */
  trust?: ProjectTrust | "all" | undefined;
  /** Answers VS Code `${input:id}` placeholders. */
  resolveInput?: (id: string, input: unknown) => Promise<string | undefined>;
  /**
   * A folder whose system paths are read for policies too, in addition to
   * the real ones (see `DiscoveryContext.systemRoot`): it can add a policy,
   * never remove one. Policy itself has no option: no option, user file or
   * project file loosens what an organisation's policy forbids.
   * @default none
   */
  systemRoot?: string;
}

/** A server a policy forbids: it is not started, and this says which rule of which file. */
export interface BlockedServer {
  name: string;
  source: SourceMeta;
  /** Whose policy: mcp-rt's own, Claude Code's managed policy, or Codex's requirements. */
  policy: PolicyId;
  /** The rule, in the words of its file, e.g. `deniedMcpServers: { "serverName": "github" }`. */
  rule: string;
  /** The policy file the rule is in. */
  policyFile: string;
}

/** What `loadAllMCPConfigs` found, and why each server it will not start is left out. */
export interface LoadConfigsResult {
  configs: Record<string, MCPServerConfig>;
  sources: Record<string, SourceMeta>;
  /** Unreadable file, bad syntax, invalid entry, unset variable. */
  errors: ConfigIssue[];
  shadowed: Array<{ name: string; source: SourceMeta; by: SourceMeta }>;
  /** `enabled: false`, or named in the native file's `disabledServers`. */
  disabled: Array<{ name: string; source: SourceMeta }>;
  /**
   * Servers the `reserve` rule held back, with the `reason` and `keys` it
   * answered (`keys` empty when it gave none).
   */
  filtered: Array<{ name: string; source: SourceMeta; reason: string; keys: string[] }>;
  /**
   * Servers a policy forbids (mcp-rt's own, or the managed policy of the
   * client whose file defines them), each with the rule and the policy
   * file. Always set by `loadAllMCPConfigs`; optional so that a replacement
   * discovery may leave it out.
   */
  blocked?: BlockedServer[];
  /**
   * Project servers waiting for the user's approval (project trust), with
   * the config they would start with (after expansion), so a UI can show what
   * it asks about.
   */
  needsApproval: Array<{
    name: string;
    source: SourceMeta;
    config?: MCPServerConfig;
    /** The env file it would read (not read before approval: `config` lacks its variables). */
    envFile?: string;
  }>;
  /**
   * What the project's files would change in the servers the user
   * configured once the project is approved (a same-name entry replacing
   * one, a setting turning one off or on). Absent when there is nothing, or
   * when the changes already apply.
   */
  pendingChanges?: ProjectChange[];
  /** The env file each server of `configs` read, by name. Absent when none did. */
  envFiles?: Record<string, string>;
  /**
   * Every file this load read or would have read had it existed (each
   * source's `paths`, else the files its entries and issues name, and the
   * `envFile`s of the servers it prepared), sorted: what a watcher follows.
   * Optional so that a replacement discovery may leave it out.
   */
  files?: string[];
  /**
   * What `trust` was asked about this project: approving `hash` for
   * `projectDir` starts its project-level servers and applies its changes.
   * Absent with `trust: "all"`, with `enableProjectConfig: false`, or when
   * the project's files define and change nothing.
   */
  projectTrust?: ProjectTrustQuestion;
}

/** A change a not yet approved project's files would make to a server the user configured. */
export interface ProjectChange {
  /** The user's server. */
  name: string;
  /**
   * `replace`: a project entry of the same name would take its place;
   * `disable` / `enable`: the project would turn it off / on; `pin`: it
   * would mark it `alwaysLoad`.
   */
  change: "replace" | "disable" | "enable" | "pin";
  /** The user's entry. */
  source: SourceMeta;
  /** The project file that makes the change. */
  path: string;
}

/** The approval question `loadAllMCPConfigs` put to a `ProjectTrust`. */
export interface ProjectTrustQuestion {
  /** The project folder, as passed to `isApproved`. */
  projectDir: string;
  /** `hashProjectServers` of the project's entries as written, its settings and env files. */
  hash: string;
  /** The answer. */
  approved: boolean;
}
