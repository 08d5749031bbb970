import { createHash } from "node:crypto";

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

/**
 * The hash a project's approval is keyed by (§8): SHA-256 (hex) of the
 * canonical, key-sorted JSON of the project-level servers, name → config as
 * written in the project's files (before `${…}` expansion, so a rotated token
 * in the user's environment does not ask again, while any change to the files
 * does). `loadAllMCPConfigs` and the `mcp-rt-config trust` command both use it.
 *
 * @example
 * ```ts
 * const hash = hashProjectServers({ lint: { command: "npx", args: ["lint-mcp"] } });
 * await trust.approve(projectDir, hash);
 * ```
 */
export function hashProjectServers(servers: Record<string, unknown>): string {
  return createHash("sha256").update(canonicalJson(servers)).digest("hex");
}
