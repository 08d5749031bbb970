import { type AuthStorage, isStdioConfig, type MCPServerConfig } from "@mcp-rt/config";
import { idTokenClaims } from "./principal.js";
import { SignInRecords } from "./sign-in-records.js";

/** What is stored about a remote server's OAuth sign-in (never a token). */
export interface SignInStatus {
  /** True when tokens are stored for it. */
  signedIn: boolean;
  /** The authorization server the sign-in is with. */
  issuer: string;
  /** The resource the tokens are for (shared by servers that name the same one). */
  resource: string;
  /** The scope granted. */
  scope?: string;
  /** When the access token expires (ms since the epoch), if the server said. */
  expiresAt?: number;
  /** True when a refresh token is stored, so the sign-in outlives the access token. */
  refreshable: boolean;
  /** Who signed in, from an OpenID Connect ID token's `email`, `preferred_username`, `name` or `sub`, when there is one. */
  account?: string;
}

/** The `email` / `preferred_username` / `name` / `sub` claim of an ID token, for display. */
function accountOf(idToken: string | undefined): string | undefined {
  const claims = idTokenClaims(idToken);
  const account = claims?.email ?? claims?.preferred_username ?? claims?.name ?? claims?.sub;
  return typeof account === "string" ? account : undefined;
}

/**
 * What `storage` holds about the OAuth sign-in of a remote server's config:
 * for `/mcp list` (🔒 and who the sign-in is for). `undefined` for a local
 * server, or one that never signed in.
 */
export async function readSignInStatus(
  config: MCPServerConfig,
  storage: AuthStorage,
): Promise<SignInStatus | undefined> {
  if (isStdioConfig(config)) return undefined;
  const records = new SignInRecords(storage);
  const server = await records.readBinding(config.url);
  if (!server) return undefined;
  const record = await records.readSignIn(server);
  const tokens = record?.tokens;
  const account = accountOf(tokens?.id_token);
  return {
    signedIn: tokens !== undefined,
    issuer: server.issuer,
    resource: server.resource,
    ...(record?.scope === undefined ? {} : { scope: record.scope }),
    ...(record?.expiresAt === undefined ? {} : { expiresAt: record.expiresAt }),
    refreshable: tokens?.refresh_token !== undefined,
    ...(account === undefined ? {} : { account }),
  };
}

/**
 * Signs a remote server's config out: deletes its stored tokens and client
 * registration (for its authorization server and resource) and what was
 * learnt about which those are. Other servers that shared the sign-in (the
 * same resource) are signed out too. Returns whether anything was stored.
 * The tokens are not revoked at the authorization server.
 */
export async function signOut(config: MCPServerConfig, storage: AuthStorage): Promise<boolean> {
  if (isStdioConfig(config)) return false;
  const records = new SignInRecords(storage);
  const server = await records.readBinding(config.url);
  if (!server) return false;
  const found = (await records.readSignIn(server)) !== undefined;
  await records.deleteSignIn(server);
  await records.deleteServer(config.url);
  return found;
}
