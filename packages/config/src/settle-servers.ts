import { envFileOutside, expandEnvFilePath, readEnvFile } from "./env-file.js";
import {
  type InterpolationOptions,
  interpolateServerConfig,
  type MissingInput,
  type MissingVariable,
} from "./interpolate.js";
import type { ConfigIssue } from "./model/config-issue.js";
import type { McpRtErrorCode } from "./model/errors.js";
import type { MCPServerConfig } from "./model/server-config.js";
import type { Policies } from "./policy/server-policy.js";
import { expansionReferences, scrubSecrets } from "./redact.js";
import type {
  DiscoveredServer,
  DiscoveryContext,
  DiscoveryOutcome,
  LoadConfigsOptions,
  LoadConfigsResult,
} from "./types.js";
import { fieldKey, isPlainObject, setOwn } from "./util/describe-value.js";
import { findServerConfigProblems, formatProblem, normalizeServerConfig } from "./validate-server-config.js";

/** A server that passed every step so far: its usable config and the entry it came from. */
export interface AcceptedServer {
  name: string;
  config: MCPServerConfig;
  /** The entry as discovered: mapped field names, placeholders not yet expanded. */
  discovered: DiscoveredServer;
  /** The env file it reads (or, not read yet, would read). */
  envFile?: string;
}

/** What the loader's steps after discovery made of one discovery, before project trust. */
export interface SettledServers
  extends Pick<LoadConfigsResult, "errors" | "shadowed" | "disabled" | "filtered"> {
  /** Servers a policy forbids. */
  blocked: NonNullable<LoadConfigsResult["blocked"]>;
  /** In precedence order; `alwaysLoadServers` pins already applied. */
  accepted: AcceptedServer[];
  /** The env files the entries read or would read. */
  envFiles: Set<string>;
}

/** Options of {@link settleServers}. */
export interface SettleOptions extends Pick<LoadConfigsOptions, "reserve">, PrepareServerOptions {
  /** The policies in force (`loadPolicies`); their file problems join `errors`. @default none */
  policies?: Policies;
}

/**
 * The loader's steps 2 to 6 over one discovery: duplicates by priority (→
 * `shadowed`), `enabled: false` and `disabledServers` (→ `disabled`),
 * expansion and validation (→ `errors`), policy (→ `blocked`), the caller's
 * `reserve` rule (→ `filtered`). Pins (`alwaysLoadServers`) are applied to
 * what is left.
 */
export async function settleServers(
  discovery: DiscoveryOutcome,
  ctx: DiscoveryContext,
  options: SettleOptions,
): Promise<SettledServers> {
  const settled: SettledServers = {
    accepted: [],
    errors: [...discovery.issues, ...(options.policies?.issues ?? [])],
    shadowed: [],
    disabled: [],
    filtered: [],
    blocked: [],
    envFiles: new Set(),
  };

  // Priority: the first entry of a name wins, the rest are shadowed by it.
  const winners = new Map<string, DiscoveredServer>();
  for (const server of discovery.servers) {
    const winner = winners.get(server.name);
    if (winner === undefined) winners.set(server.name, server);
    else settled.shadowed.push({ name: server.name, source: server.source, by: winner.source });
  }

  const enabled = [...winners.values()].filter((server) => {
    const off = isSwitchedOff(server.config) || discovery.disabledServers.has(server.name);
    if (off) settled.disabled.push({ name: server.name, source: server.source });
    return !off;
  });

  const prepared = await Promise.all(enabled.map((server) => prepareServer(server, ctx, options)));
  enabled.forEach((server, i) => {
    const outcome = prepared[i];
    if (outcome === undefined) return;
    if (outcome.envFile !== undefined) settled.envFiles.add(outcome.envFile);
    if ("issue" in outcome) {
      settled.errors.push(outcome.issue);
      return;
    }
    // Judged on what would run (placeholders expanded), before anything else may ask about it.
    const block = options.policies?.judge({
      name: server.name,
      config: outcome.config,
      source: server.source,
    });
    if (block) {
      settled.blocked.push({ name: server.name, source: server.source, ...block });
      return;
    }
    const reserved = options.reserve?.({ name: server.name, config: outcome.config, source: server.source });
    if (reserved) {
      settled.filtered.push({
        name: server.name,
        source: server.source,
        reason: reserved.reason,
        keys: [...(reserved.keys ?? [])],
      });
      return;
    }
    // A pin is not a change to approve: trust hashes entries as written.
    const pinned = discovery.alwaysLoadServers.has(server.name) && outcome.config.alwaysLoad !== true;
    settled.accepted.push({
      name: server.name,
      config: pinned ? { ...outcome.config, alwaysLoad: true } : outcome.config,
      discovered: server,
      ...(outcome.envFile !== undefined ? { envFile: outcome.envFile } : {}),
    });
  });
  return settled;
}

function isSwitchedOff(config: unknown): boolean {
  return typeof config === "object" && config !== null && (config as { enabled?: unknown }).enabled === false;
}

/**
 * A discovered entry turned into a usable config, or the one issue that keeps
 * it from running; `envFile` is the dotenv file it read, tried to read, or
 * (when told not to read it) would read.
 */
export type PreparedServer = ({ config: MCPServerConfig } | { issue: ConfigIssue }) & { envFile?: string };

/** Options of {@link prepareServer}. */
export interface PrepareServerOptions extends Pick<LoadConfigsOptions, "resolveInput"> {
  /**
   * True when the entry's `envFile` (absolute) must not be read now: a file
   * inside a project not approved yet. A project-level entry then comes back
   * without the file's variables (it waits for approval anyway); a
   * user-level entry becomes an issue. @default never
   */
  envFileHeld?: (path: string) => Promise<boolean>;
}

/** How the loader expands one entry's placeholders. */
export function interpolationOf(
  server: DiscoveredServer,
  ctx: DiscoveryContext,
  options: Pick<LoadConfigsOptions, "resolveInput"> = {},
): InterpolationOptions {
  return {
    syntax: server.interpolation?.syntax ?? "posix",
    env: ctx.env,
    cwd: ctx.cwd,
    homeDir: ctx.homeDir,
    platform: ctx.platform,
    ...(server.interpolation?.inputs ? { inputs: server.interpolation.inputs } : {}),
    ...(options.resolveInput ? { resolveInput: options.resolveInput } : {}),
  };
}

/**
 * Finishes one entry: expands its placeholders, adds its `envFile` (only one
 * inside the project, or the home for a user-level entry), validates it and
 * strips fields that do not apply to its transport.
 */
export async function prepareServer(
  server: DiscoveredServer,
  ctx: DiscoveryContext,
  options: PrepareServerOptions,
): Promise<PreparedServer> {
  const { name, source } = server;
  const issue = (code: McpRtErrorCode, message: string): PreparedServer => ({
    issue: { path: source.path, server: name, code, message },
  });
  const interpolation = interpolationOf(server, ctx, options);

  const expanded = await interpolateServerConfig(server.config, interpolation);
  const missing = [...expanded.missing];
  let envFile: string | undefined;
  if (server.envFile !== undefined) {
    const path = await expandEnvFilePath(server.envFile, ctx, interpolation);
    missing.push(...path.missing);
    envFile = path.path;
  }
  if (missing.length > 0) return issue("VAR_UNSET", unsetMessage(name, source.path, missing));
  if (expanded.missingInputs !== undefined) {
    return issue(
      "INPUT_UNRESOLVED",
      unansweredMessage(name, source.path, expanded.missingInputs, options.resolveInput !== undefined),
    );
  }

  let config = expanded.config;
  const usesEnvFile = envFile !== undefined && isPlainObject(config) && config.command !== undefined;
  if (envFile !== undefined && usesEnvFile) {
    const outside = await envFileOutside(envFile, source.level, ctx);
    if (outside !== undefined) {
      return {
        ...issue(
          "CONFIG_INVALID",
          `servers${fieldKey(name)}.envFile: ${outside}; fix the path in ${source.path}`,
        ),
        envFile,
      };
    }
  }
  const held = envFile !== undefined && usesEnvFile && (await options.envFileHeld?.(envFile)) === true;
  if (envFile !== undefined && held && source.level === "user") {
    return {
      ...issue(
        "CONFIG_INVALID",
        `servers${fieldKey(name)}.envFile: ${envFile} is inside the project folder, whose MCP config is not approved yet, so it is not read; approve the project, or keep the file outside it (in ${source.path})`,
      ),
      envFile,
    };
  }
  if (envFile !== undefined && usesEnvFile && !held && isPlainObject(config)) {
    const loaded = await readEnvFile(envFile);
    if ("error" in loaded) {
      return {
        ...issue(
          "CONFIG_UNREADABLE",
          `servers${fieldKey(name)}.envFile: cannot read ${envFile} (${loaded.error}); create it or fix the path in ${source.path}`,
        ),
        envFile,
      };
    }
    if (config.env === undefined || isPlainObject(config.env)) {
      const env: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(loaded.values)) setOwn(env, key, value);
      for (const [key, value] of Object.entries(config.env ?? {})) setOwn(env, key, value);
      config = { ...config, env };
    }
  }

  const read = envFile !== undefined && usesEnvFile ? { envFile } : {};
  const problems = findServerConfigProblems(name, config);
  if (problems.length > 0) {
    const messages = problems.map((problem) => formatProblem(name, problem, server.fieldNames));
    // A message may quote a value an expansion made (a bad `url`): show the reference instead.
    const references = expansionReferences(server.config, { env: ctx.env });
    return { ...issue("CONFIG_INVALID", scrubSecrets(messages.join("; "), [], references)), ...read };
  }
  const normalized = normalizeServerConfig(config);
  if (normalized === undefined) {
    return { ...issue("CONFIG_INVALID", `servers${fieldKey(name)}: not a valid server config`), ...read };
  }
  return { config: normalized, ...read };
}

function unsetMessage(name: string, path: string, missing: MissingVariable[]): string {
  const variables = [...new Set(missing.map((m) => m.variable))];
  const written = (m: MissingVariable) => m.placeholder ?? `\${${m.variable}}`;
  const uses = missing.map((m) => `${written(m)} in ${m.field}`).join(", ");
  const first = variables[0] ?? "";
  const subject =
    variables.length === 1
      ? `environment variable ${first} is not set`
      : `environment variables ${variables.join(", ")} are not set`;
  const set = `set ${variables.length === 1 ? "it" : "them"}`;
  // A default is only offered for the `${VAR}` form: `${env:VAR:-x}` is no form at all.
  const plain = missing.find((m) => written(m) === `\${${m.variable}}`);
  const hint = plain
    ? `${set}, or write \${${plain.variable}:-default} to fall back to a default`
    : `${set} in the environment the agent starts in`;
  return `servers${fieldKey(name)}: ${subject} (${uses}, in ${path}); ${hint}`;
}

function unansweredMessage(name: string, path: string, missing: MissingInput[], canAsk: boolean): string {
  const inputs = [...new Set(missing.map((m) => m.input))];
  const uses = missing.map((m) => `\${input:${m.input}} in ${m.field}`).join(", ");
  const subject = `VS Code input${inputs.length === 1 ? "" : "s"} ${inputs.map((id) => `"${id}"`).join(", ")}`;
  return canAsk
    ? `servers${fieldKey(name)}: ${subject} got no answer (${uses}, in ${path}); answer when asked, or put the value in the config instead of the placeholder`
    : `servers${fieldKey(name)}: ${subject} cannot be asked for (${uses}, in ${path}): no resolveInput was given to loadAllMCPConfigs; pass one, or put the value in the config instead of the placeholder`;
}
