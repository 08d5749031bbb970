import type { MCPHttpServerConfig } from "@mcp-rt/config";
import type { ClientMetadata } from "oidc-provider";
import {
  type ResourceServer,
  type ResourceServerCounts,
  startResourceServer,
} from "./oauth-resource-server.js";
import {
  type AuthorizationServer,
  type AuthorizationServerCounts,
  startAuthorizationServer,
} from "./oidc-authorization-server.js";

/** Options of {@link startOAuthFixture}. */
export interface OAuthFixtureOptions {
  /** Endpoint paths, each its own MCP server on one resource server. @default ["/mcp"] */
  endpoints?: string[];
  /** The resource each endpoint's metadata names: its own URL, or the origin shared by all. @default "endpoint" */
  resource?: "endpoint" | "origin";
  /** Scope every MCP request needs (named in the 401 challenge). @default "mcp:read" */
  scope?: string;
  /** Scope the `admin_action` tool needs as well (a 403 `insufficient_scope` asks for it). @default "mcp:admin" */
  stepUpScope?: string;
  /** Access token lifetime, in seconds. @default 3600 */
  accessTokenTtlSeconds?: number;
  /** Refresh token lifetime, in seconds. @default 86400 */
  refreshTokenTtlSeconds?: number;
  /** Open dynamic client registration. @default true */
  dynamicRegistration?: boolean;
  /** Pre-registered clients (oidc-provider client metadata: `client_id`, `client_secret`, `redirect_uris`…). */
  clients?: ClientMetadata[];
  /** Port of the MCP (resource) server, e.g. to start it again on the same address. @default a free port */
  port?: number;
  /**
   * The MCP era the endpoints speak: `legacy` (stateful 2025 sessions) or
   * `modern` (2026-07-28 only, the SDK's `createMcpHandler`; its lists are
   * private, and each signed-in subject has a tool of its own,
   * `notes_<subject>`). @default "legacy"
   */
  era?: "legacy" | "modern";
}

/** What both servers of the fixture have seen. */
export type OAuthFixtureCounts = AuthorizationServerCounts & ResourceServerCounts;

/** A running authorization server and the MCP server it protects. */
export interface OAuthFixture {
  /** The authorization server's issuer, e.g. `http://127.0.0.1:41234`. */
  readonly issuer: string;
  /** The first endpoint's URL, e.g. `http://127.0.0.1:41235/mcp`. */
  readonly url: string;
  /** Every endpoint's URL. */
  readonly urls: readonly string[];
  /** A config for an endpoint (`type: "http"`, no `auth`: the 401 asks for OAuth). @default the first */
  config(url?: string): MCPHttpServerConfig;
  /** Counters of both servers, as of now (a copy). */
  readonly counts: OAuthFixtureCounts;
  /** When true, sign-ins are declined (`access_denied`), as a user pressing "Cancel". */
  denyConsent: boolean;
  /** Who signs in at the next login page (the authorization server's user). @default "alice" */
  account: string;
  /** Revokes every access token issued so far: the next request with one is answered 401. */
  revokeAccessTokens(): number;
  /** Revokes every refresh token: the next refresh fails with `invalid_grant`. */
  revokeRefreshTokens(): number;
  /** Every secret issued so far (tokens, codes, client secrets), to look for in outputs. */
  secrets(): string[];
  /** Stops both servers. Idempotent. */
  close(): Promise<void>;
  /** Same as {@link OAuthFixture.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * An MCP server that needs OAuth, with a real authorization server in front of
 * it, both on 127.0.0.1 in this process: oidc-provider (dynamic registration,
 * PKCE, resource indicators, rotating refresh tokens, a sign-in that approves
 * at once) and an SDK MCP server behind `requireBearerAuth`. Drive the browser
 * step with `createBrowserStandIn().openUrl`.
 *
 * @example
 * await using fixture = await startOAuthFixture();
 * const browser = createBrowserStandIn();
 * const connection = await connectToServer({
 *   name: "x",
 *   config: fixture.config(),
 *   oauth: { storage: createMemoryAuthStorage(), openUrl: browser.openUrl, interactive: true },
 * });
 */
export async function startOAuthFixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const scope = options.scope ?? "mcp:read";
  const stepUpScope = options.stepUpScope ?? "mcp:admin";
  let authorization: AuthorizationServer | undefined;
  const resourceServer: ResourceServer = await startResourceServer(
    {
      authorizationServer: () => {
        if (!authorization) throw new Error("the authorization server is not up yet");
        return authorization;
      },
      endpoints: options.endpoints ?? ["/mcp"],
      resource: options.resource ?? "endpoint",
      scope,
      stepUpScope,
      era: options.era ?? "legacy",
    },
    options.port,
  );
  try {
    authorization = await startAuthorizationServer({
      resources: [...new Set(resourceServer.resources.values())],
      scopes: [scope, stepUpScope],
      ...(options.accessTokenTtlSeconds === undefined
        ? {}
        : { accessTokenTtlSeconds: options.accessTokenTtlSeconds }),
      ...(options.refreshTokenTtlSeconds === undefined
        ? {}
        : { refreshTokenTtlSeconds: options.refreshTokenTtlSeconds }),
      ...(options.dynamicRegistration === undefined
        ? {}
        : { dynamicRegistration: options.dynamicRegistration }),
      ...(options.clients ? { clients: options.clients } : {}),
    });
  } catch (error) {
    await resourceServer.close();
    throw error;
  }
  const as = authorization;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= Promise.all([resourceServer.close(), as.close()]).then(() => undefined);
    return closing;
  };
  return {
    issuer: as.issuer,
    url: resourceServer.urls[0]!,
    urls: resourceServer.urls,
    config: (url = resourceServer.urls[0]!) => ({ type: "http", url }),
    get counts() {
      return { ...as.counts, ...resourceServer.counts };
    },
    get denyConsent() {
      return as.denyConsent;
    },
    set denyConsent(value: boolean) {
      as.denyConsent = value;
    },
    get account() {
      return as.account;
    },
    set account(value: string) {
      as.account = value;
    },
    revokeAccessTokens: () => as.store.removeAll("AccessToken"),
    revokeRefreshTokens: () => as.store.removeAll("RefreshToken"),
    secrets: () => as.store.secrets(),
    close,
    [Symbol.asyncDispose]: close,
  };
}
