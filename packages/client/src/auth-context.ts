import { createHash } from "node:crypto";
import type { MCPServerConfig } from "@mcp-rt/config";

/**
 * Who a connection authenticates as, as one SHA-256 (hex): over the
 * credentials of its resolved config (its headers and environment, where
 * `auth: { type: "apikey" }` and `!cmd` values land) and its OAuth sign-in
 * (`principal`: the issuer, resource and the ID token's subject, else the
 * tokens). A list a server marks `cacheScope: "private"` is kept per value of
 * this, and is never served to another (SEP-2549). It is a digest, never a
 * secret; a refreshed token without an ID token gives a new one, which only
 * costs a cache miss. `undefined` for a connection that sends no credentials
 * at all: every caller of that config is then the same anonymous one.
 */
export function authContextOf(resolved: MCPServerConfig, principal: string | undefined): string | undefined {
  const { headers, env } = resolved as { headers?: Record<string, string>; env?: Record<string, string> };
  const sorted = (record: Record<string, string> | undefined): [string, string][] =>
    Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (principal === undefined && sorted(headers).length === 0 && sorted(env).length === 0) return undefined;
  const parts = [
    sorted(headers).map(([name, value]) => [name.toLowerCase(), value]),
    sorted(env),
    principal ?? null,
  ];
  return createHash("sha256")
    .update(`mcp-rt auth context\0${JSON.stringify(parts)}`)
    .digest("hex");
}
