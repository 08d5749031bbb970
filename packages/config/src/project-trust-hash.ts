import { createHash } from "node:crypto";
import type { SourceMeta } from "./server-config.js";

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

/**
 * The hash a project's approval is keyed by (project trust): SHA-256 (hex) of the
 * canonical, key-sorted JSON of the project-level entries among `servers`
 * (provider, name and config as written in the project's files, before `${…}`
 * expansion). So any change to a project file's servers asks again, while a
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
export function hashProjectServers(servers: readonly TrustHashEntry[]): string {
  const entries = servers
    .filter((server) => server.source.level === "project")
    .map((server) =>
      server.envFile === undefined
        ? ([server.source.provider, server.name, server.config] as const)
        : ([server.source.provider, server.name, server.config, server.envFile] as const),
    )
    .sort(([p1, n1], [p2, n2]) => (p1 === p2 ? compare(n1, n2) : compare(p1, p2)));
  return createHash("sha256").update(canonicalJson(entries)).digest("hex");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
