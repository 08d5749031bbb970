import type { AuthStorage, MCPServerConfig } from "@mcp-rt/config";
import { mayUseOAuth } from "./may-use-oauth.js";
import { bindingKey, type SignInKey, signInKey } from "./sign-in-keys.js";

/** The claims of an ID token, read for display and partitioning only (never verified, never trusted). */
export function idTokenClaims(idToken: string | undefined): Record<string, unknown> | undefined {
  const payload = idToken?.split(".")[1];
  if (!payload) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return claims !== null && typeof claims === "object" ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The tokens of a sign-in, as far as a principal is concerned. */
interface PrincipalTokens {
  id_token?: string | undefined;
  refresh_token?: string | undefined;
  access_token?: string | undefined;
}

/**
 * Who a sign-in is: its issuer and resource with the ID token's `sub`, else
 * its refresh or access token (then a new token is a new principal, which
 * only costs a cache miss). Only ever digested (`authContextOf`).
 */
export function principalOf(key: SignInKey, tokens: PrincipalTokens): string {
  const sub = idTokenClaims(tokens.id_token)?.sub;
  const who =
    typeof sub === "string" && sub.length > 0 ? `sub:${sub}` : (tokens.refresh_token ?? tokens.access_token);
  return JSON.stringify([key.issuer, key.resource, who]);
}

/** What {@link readStoredPrincipal} found. */
export interface StoredPrincipal {
  /** The stored sign-in's principal; `undefined` when there is none. */
  principal: string | undefined;
  /**
   * The storage to hand the connection: it answers the records just read
   * from memory, once, so the connection's OAuth reads them without a
   * second trip to the store.
   */
  storage: AuthStorage;
}

function parse(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The principal of the sign-in stored for a remote server that OAuth may
 * serve (`mayUseOAuth`), read before it is connected, without loading the
 * SDK: what a start needs to find the server's private lists in the tool
 * cache. A record it cannot read is no principal (the connection then says
 * what is wrong with it). A stdio server, or one with credentials of the
 * user's own, has none, and nothing is read.
 */
export async function readStoredPrincipal(
  config: MCPServerConfig,
  storage: AuthStorage,
): Promise<StoredPrincipal> {
  if (!mayUseOAuth(config) || !("url" in config)) return { principal: undefined, storage };
  const read = new Map<string, string | undefined>();
  const get = async (key: string): Promise<string | undefined> => {
    const value = await storage.get(key);
    read.set(key, value);
    return value;
  };
  let principal: string | undefined;
  try {
    const binding = parse(await get(bindingKey(config.url)));
    const { issuer, resource } = binding ?? {};
    if (typeof issuer === "string" && typeof resource === "string") {
      const key = { issuer, resource };
      const tokens = parse(await get(signInKey(key)))?.tokens;
      if (tokens !== null && typeof tokens === "object")
        principal = principalOf(key, tokens as PrincipalTokens);
    }
  } catch {
    // The store could not be read: the connection reads it again and reports why.
    return { principal: undefined, storage };
  }
  return { principal, storage: answeringOnce(storage, read) };
}

/** `storage`, with the values in `read` answered from memory on their first `get` (a write or delete forgets them). */
function answeringOnce(storage: AuthStorage, read: Map<string, string | undefined>): AuthStorage {
  return {
    get: (key) => {
      if (!read.has(key)) return storage.get(key);
      const value = read.get(key);
      read.delete(key);
      return Promise.resolve(value);
    },
    set: (key, value) => {
      read.delete(key);
      return storage.set(key, value);
    },
    delete: (key) => {
      read.delete(key);
      return storage.delete(key);
    },
  };
}
