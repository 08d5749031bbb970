import { createHash } from "node:crypto";
import { homedir, hostname, userInfo } from "node:os";
import { isSecretEnvName, isStdioConfig, type MCPServerConfig, redactText } from "@mcp-rt/config";
import { createServerEnv } from "./stdio/server-process.js";

/** What {@link authContextOf} digests. */
export interface AuthContextInput {
  /** Who the agent acts for (see {@link localUser}). */
  user: string;
  /** The config as the caller gave it (unresolved): its literal values are already in the cache entry's id. */
  written: MCPServerConfig;
  /** The config connected with (`resolveServerConfig`): `!command` outputs and API keys filled in. */
  resolved: MCPServerConfig;
  /** The environment a stdio server inherits from. @default process.env */
  parentEnv?: Record<string, string | undefined> | undefined;
  /** The OAuth sign-in the connection uses: its issuer, resource and subject (`OAuthSession.principal`). */
  principal?: string | undefined;
}

/** Names of inherited variables that carry request headers (`OPENAPI_MCP_HEADERS`): credentials more often than not. */
const HEADERS_NAME = /(?:^|_)HEADERS?$/i;

let local: string | undefined;

/**
 * Who runs this process: the OS user (uid and name), the host and the home
 * folder. Part of every auth context, so that a tool cache shared by several
 * users or machines (a file on a shared disk, a Redis) never hands one's
 * private lists to another.
 */
export function localUser(): string {
  if (local !== undefined) return local;
  let user: string;
  try {
    const { uid, username } = userInfo();
    user = `${uid}:${username}`;
  } catch {
    // A uid without a passwd entry (some containers).
    user = `${process.getuid?.() ?? "?"}:${process.env.USER ?? process.env.USERNAME ?? "?"}`;
  }
  local = `${user}@${hostname()}:${homedir()}`;
  return local;
}

/**
 * Who a connection authenticates as, as one SHA-256 (hex): a digest of every
 * value the server gets that its unresolved config does not fix, and of who
 * asks. A list a server marks `cacheScope: "private"` (SEP-2549) is kept per
 * value of this and never served to another. It digests:
 *
 * - the user ({@link localUser}, or the caller's `user`): always, so even a
 *   config whose values are all literal is never shared across users or hosts;
 * - each value resolution filled in or changed: `!command` outputs (env,
 *   headers, an OAuth client secret), the `apikey` credential
 *   (`MCP_API_KEY`, `Authorization`);
 * - for a stdio server, what it inherits that can carry a credential: the
 *   `envPassthrough` variables, and any variable named like a header bundle
 *   (`OPENAPI_MCP_HEADERS`) or whose value holds a credential by its shape
 *   (`Bearer …`, a URL with a password, `ghp_…`: what `redactText` hides);
 * - the OAuth principal (issuer, resource and the ID token's subject), not
 *   the token: a refreshed token is the same caller.
 *
 * `${VAR}` values are expanded by the loader before the config reaches the
 * manager, so they are in the config itself, whose fingerprint every cache
 * entry's id starts from. A changed value costs a cache miss, never a leak.
 * It is a digest, never a secret.
 */
export function authContextOf(input: AuthContextInput): string {
  const { written, resolved } = input;
  const parts = [
    input.user,
    resolvedValues(written, resolved),
    isStdioConfig(resolved) ? inheritedCredentials(resolved, input.parentEnv ?? process.env) : [],
    input.principal ?? null,
  ];
  return createHash("sha256")
    .update(`mcp-rt auth context 2\0${JSON.stringify(parts)}`)
    .digest("hex");
}

/** The values of `env`, `headers` and `auth` that resolving filled in or changed, by field, in a stable order. */
function resolvedValues(written: MCPServerConfig, resolved: MCPServerConfig): [string, string][] {
  const changed: [string, string][] = [];
  const compare = (field: string, before: object | undefined, after: object | undefined): void => {
    const was = (before ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(after ?? {})) {
      if (typeof value !== "string" || was[key] === value) continue;
      changed.push([`${field}.${field === "headers" ? key.toLowerCase() : key}`, value]);
    }
  };
  const w = written as { env?: object; headers?: object; auth?: object };
  const r = resolved as { env?: object; headers?: object; auth?: object };
  compare("env", w.env, r.env);
  compare("headers", w.headers, r.headers);
  compare("auth", w.auth, r.auth);
  return changed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What a stdio server inherits from `parentEnv` (its config's `env` aside) that can carry a credential. */
function inheritedCredentials(
  config: { env?: Record<string, string> | undefined; envPassthrough?: string[] | undefined },
  parentEnv: Record<string, string | undefined>,
): [string, string][] {
  const inherited = createServerEnv({ parent: parentEnv, passthrough: config.envPassthrough ?? [] });
  const own = new Set(Object.keys(config.env ?? {}));
  return Object.entries(inherited)
    .filter(
      ([name, value]) =>
        !own.has(name) && (isSecretEnvName(name) || HEADERS_NAME.test(name) || redactText(value) !== value),
    )
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
