import type { SourceMeta } from "../model/source-meta.js";
import { redactServerConfig } from "../redact.js";
import type { DiscoveredServer, LoadConfigsResult, ProjectChange } from "../types.js";
import { displayPath, type PathContext } from "../util/display-path.js";

/**
 * What a server would run, secrets hidden: its command line, or its URL.
 * With its entry as written (`template`), a value that came from an
 * expansion is shown as written there.
 */
export function whatItRuns(config: unknown, template?: unknown): string {
  const shown = redactServerConfig(config ?? {}, { template }) as Record<string, unknown>;
  if (typeof shown.command === "string") {
    return [shown.command, ...(Array.isArray(shown.args) ? shown.args : [])].join(" ");
  }
  return typeof shown.url === "string" ? shown.url : "";
}

/** A change a project would make to one of the user's servers, as words ("would turn it off"). */
export function changeWords(change: ProjectChange["change"]): string {
  return {
    replace: "would replace it with its own entry of the same name",
    disable: "would turn it off",
    enable: "would turn it on",
    pin: "would pin it (alwaysLoad)",
  }[change];
}

/**
 * What approving a project would start and change, one line each: every
 * server waiting (name, file, what it runs, the env file it would read) and
 * every change to the user's own servers. What `trust` shows, so what is
 * approved is what was shown.
 */
export function approvalSummary(
  result: Pick<LoadConfigsResult, "needsApproval" | "pendingChanges">,
  context: PathContext,
  discovered: readonly DiscoveredServer[] = [],
): string[] {
  const lines: string[] = [];
  for (const entry of result.needsApproval) {
    const template = templateOf(entry, discovered);
    lines.push(
      `${entry.name} (${displayPath(entry.source.path, context)}): ${whatItRuns(entry.config, template)}`,
    );
    if (entry.envFile !== undefined) lines.push(`  env file: ${displayPath(entry.envFile, context)}`);
  }
  for (const change of result.pendingChanges ?? []) {
    lines.push(
      `your ${change.name} (${displayPath(change.source.path, context)}): ${displayPath(change.path, context)} ${changeWords(change.change)}`,
    );
  }
  return lines;
}

/** The entry as written that `entry` came from, if it is among `discovered`. */
export function templateOf(
  entry: { name: string; source: SourceMeta },
  discovered: readonly DiscoveredServer[],
): unknown {
  return discovered.find(
    (found) =>
      found.name === entry.name &&
      found.source.path === entry.source.path &&
      found.source.provider === entry.source.provider,
  )?.config;
}
