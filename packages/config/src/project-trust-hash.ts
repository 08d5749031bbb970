import { createHash } from "node:crypto";
import type { SourceMeta } from "./server-config.js";
import type { ProjectSetting } from "./types.js";

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

/** An env file inside the project that an approval covers, by the digest of its bytes. */
export interface TrustHashEnvFile {
  server: string;
  provider: string;
  /** The file, absolute. */
  path: string;
  /** SHA-256 (hex) of its bytes, or `missing`. */
  digest: string;
}

/** What else a project's approval covers besides its server entries. */
export interface TrustHashExtras {
  /** The project files' settings that change which servers run (`disabledServers`, `mcp.excluded`…). */
  settings?: readonly ProjectSetting[];
  /** The env files inside the project that entries read, project-level or not. */
  envFiles?: readonly TrustHashEnvFile[];
}

/**
 * The hash a project's approval is keyed by (project trust): SHA-256 (hex) of the
 * canonical, key-sorted JSON of the project-level entries among `servers`
 * (provider, name and config as written in the project's files, before `${…}`
 * expansion), plus the project files' settings and the digests of the env
 * files inside the project that entries read (`extras`). So any change to a
 * project file's servers, settings or env files asks again, while a
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
export function hashProjectServers(servers: readonly TrustHashEntry[], extras: TrustHashExtras = {}): string {
  const entries = servers
    .filter((server) => server.source.level === "project")
    .map((server) =>
      server.envFile === undefined
        ? ([server.source.provider, server.name, server.config] as const)
        : ([server.source.provider, server.name, server.config, server.envFile] as const),
    )
    .sort(([p1, n1], [p2, n2]) => (p1 === p2 ? compare(n1, n2) : compare(p1, p2)));
  const settings = [...(extras.settings ?? [])]
    .map((setting) => [setting.path, setting.key, setting.value] as const)
    .sort(([p1, k1], [p2, k2]) => (p1 === p2 ? compare(k1, k2) : compare(p1, p2)));
  const envFiles = [...(extras.envFiles ?? [])]
    .map((file) => [file.provider, file.server, file.path, file.digest] as const)
    .sort((a, b) => compare(a.join("\0"), b.join("\0")));
  // Without extras the hash is the entries' alone, so approvals made before extras counted still hold.
  const hashed = settings.length === 0 && envFiles.length === 0 ? entries : { entries, settings, envFiles };
  return createHash("sha256").update(canonicalJson(hashed)).digest("hex");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
