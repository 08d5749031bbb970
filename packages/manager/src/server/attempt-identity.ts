import { toolCacheFingerprint } from "@mcp-rt/cache";
import { authContextOf, readStoredPrincipal } from "@mcp-rt/client/light";
import { type AuthStorage, type MCPServerConfig, resolveServerConfig } from "@mcp-rt/config";

/** What an attempt connects with and as, resolved once, before the server is started. */
export interface AttemptIdentity {
  /** The config to connect with: `!command` values and API keys filled in (it holds secrets; never kept past the connect). */
  resolved: MCPServerConfig;
  /** The fingerprint of `resolved` (never the values): a reload compares it to see whether they changed. */
  resolvedFingerprint: string;
  /**
   * Who the attempt connects as (`authContextOf`): the user, the values
   * resolving filled in, inherited credentials, the stored OAuth principal.
   * The server's private lists are read from the tool cache under it.
   */
  authContext: string;
  /** The auth storage to hand the connection's OAuth, answering the sign-in already read from memory; `undefined` without one. */
  authStorage: AuthStorage | undefined;
}

/** Options of {@link resolveIdentity}. */
export interface ResolveIdentityOptions {
  /** The server's config name, for messages. */
  name: string;
  /** Its unresolved config. */
  config: MCPServerConfig;
  /** The agent's folder: `!command` values run there. */
  cwd: string;
  /** Where API keys and sign-ins live. */
  authStorage: AuthStorage | undefined;
  /** Who the agent acts for (`MCPManagerOptions.user`); the OS user, host and home folder by default. */
  user: string;
}

/**
 * Resolves what a server will be started with (`resolveServerConfig`: its
 * `!command` values run, its API key read) and who it is started as, with
 * no more I/O than that needs: for a remote server OAuth may serve, the
 * stored sign-in is read here, and handed on to the connection, which
 * reads it from memory. Rejects as `resolveServerConfig` does
 * (`SHELL_FAILED`, `AUTH_REQUIRED`).
 */
export async function resolveIdentity(options: ResolveIdentityOptions): Promise<AttemptIdentity> {
  const { name, config, cwd } = options;
  const [resolved, signIn] = await Promise.all([
    resolveServerConfig({
      name,
      config,
      cwd,
      ...(options.authStorage ? { authStorage: options.authStorage } : {}),
    }),
    options.authStorage ? readStoredPrincipal(config, options.authStorage) : undefined,
  ]);
  return {
    resolved,
    resolvedFingerprint: toolCacheFingerprint({ serverName: name, config: resolved, cwd }),
    authContext: authContextOf({
      user: options.user,
      written: config,
      resolved,
      principal: signIn?.principal,
    }),
    authStorage: signIn?.storage ?? options.authStorage,
  };
}
