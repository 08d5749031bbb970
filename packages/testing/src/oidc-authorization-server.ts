import { generateKeyPairSync, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { errorMessage } from "@mcp-rt/config/util";
import type { ClientMetadata, KoaContextWithOIDC, Provider } from "oidc-provider";
import { createOidcMemoryStore, type OidcMemoryStore } from "./oidc-memory-adapter.js";

/** Options of {@link startAuthorizationServer}. */
export interface AuthorizationServerOptions {
  /** Resource indicators (RFC 8707) tokens may be issued for; others are refused. */
  resources: string[];
  /** Scopes the resources know, in the order they are granted. */
  scopes: string[];
  /** Access token lifetime, in seconds. @default 3600 */
  accessTokenTtlSeconds?: number;
  /** Refresh token lifetime, in seconds. @default 86400 */
  refreshTokenTtlSeconds?: number;
  /** Open dynamic client registration (RFC 7591). @default true */
  dynamicRegistration?: boolean;
  /** Pre-registered clients, as oidc-provider takes them. */
  clients?: ClientMetadata[];
}

/** What the authorization server has seen, for assertions. */
export interface AuthorizationServerCounts {
  /** Dynamic client registrations. */
  registrations: number;
  /** Authorization requests clients sent (one per browser sign-in). */
  authorizations: number;
  /** Authorization codes exchanged for tokens. */
  codeExchanges: number;
  /** Successful refresh token grants. */
  refreshes: number;
  /** Refresh token grants refused (an expired or revoked refresh token: `invalid_grant`). */
  refreshFailures: number;
}

/** A running authorization server. */
export interface AuthorizationServer {
  /** Its issuer identifier, e.g. `http://127.0.0.1:41234`. */
  readonly issuer: string;
  readonly provider: Provider;
  readonly store: OidcMemoryStore;
  readonly counts: AuthorizationServerCounts;
  /** When true, the next sign-ins are declined (`access_denied`), as a user pressing "Cancel". */
  denyConsent: boolean;
  /** Who signs in at the next login page. @default "alice" */
  account: string;
  close(): Promise<void>;
}

type OidcProviderModule = typeof import("oidc-provider");
let providerModule: Promise<OidcProviderModule> | undefined;

/** oidc-provider, loaded once. */
function loadProvider(): Promise<OidcProviderModule> {
  providerModule ??= (async () => {
    // oidc-provider 9 warns once, at import, that it supports only Node 22+ LTS; it runs on
    // Node 20 (this fixture's tests prove it), and the warning would fill every test log.
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (!String(args[0]).includes("Unsupported runtime")) warn(...args);
    };
    try {
      return await import("oidc-provider");
    } finally {
      console.warn = warn;
    }
  })();
  return providerModule;
}

/**
 * oidc-provider (a certified OpenID Provider) on 127.0.0.1 and a free port, set
 * up as an MCP authorization server: dynamic client registration, PKCE,
 * resource indicators with opaque access tokens for the given resources,
 * rotating refresh tokens for clients registered with the `refresh_token`
 * grant, and a login + consent step that approves at once (or declines, with
 * `denyConsent`) so a browser stand-in can follow the redirects to the end.
 */
export async function startAuthorizationServer(
  options: AuthorizationServerOptions,
): Promise<AuthorizationServer> {
  const { default: ProviderClass, errors } = await loadProvider();
  const store = createOidcMemoryStore();
  const counts: AuthorizationServerCounts = {
    registrations: 0,
    authorizations: 0,
    codeExchanges: 0,
    refreshes: 0,
    refreshFailures: 0,
  };
  const http = createServer();
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const scope = options.scopes.join(" ");
  const { resources } = options;
  const jwk = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });

  const provider = new ProviderClass(issuer, {
    adapter: store.factory,
    clients: options.clients ?? [],
    jwks: { keys: [{ ...jwk, alg: "ES256", use: "sig", kid: "fixture" }] },
    cookies: { keys: [randomBytes(16).toString("hex")] },
    scopes: ["openid", "offline_access", ...options.scopes],
    clientDefaults: {
      id_token_signed_response_alg: "ES256",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: options.dynamicRegistration !== false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resources[0] ?? "",
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, indicator: string) => {
          if (!resources.includes(indicator)) throw new errors.InvalidTarget();
          return {
            scope,
            audience: indicator,
            accessTokenTTL: options.accessTokenTtlSeconds ?? 3600,
            accessTokenFormat: "opaque",
          };
        },
      },
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    findAccount: async (_ctx, accountId) => ({ accountId, claims: async () => ({ sub: accountId }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: {
      AccessToken: options.accessTokenTtlSeconds ?? 3600,
      AuthorizationCode: 60,
      Grant: 86_400,
      IdToken: 3600,
      Interaction: 600,
      RefreshToken: options.refreshTokenTtlSeconds ?? 86_400,
      Session: 86_400,
    },
  });
  provider.on("registration_create.success", () => counts.registrations++);
  provider.on("grant.success", (ctx: KoaContextWithOIDC) => {
    const grantType = ctx.oidc.params?.grant_type;
    if (grantType === "authorization_code") counts.codeExchanges++;
    if (grantType === "refresh_token") counts.refreshes++;
  });
  provider.on("grant.error", (ctx: KoaContextWithOIDC) => {
    if (ctx.oidc.params?.grant_type === "refresh_token") counts.refreshFailures++;
  });

  const server: AuthorizationServer = {
    issuer,
    provider,
    store,
    counts,
    denyConsent: false,
    account: "alice",
    close: async () => {
      http.closeAllConnections();
      http.close();
      await once(http, "close");
    },
  };
  const callback = provider.callback();
  http.on("request", (req: IncomingMessage, res: ServerResponse) => {
    // A client's authorization request (not the resumption after login or consent, `/auth/<uid>`).
    if (req.url?.startsWith("/auth?")) counts.authorizations++;
    if (req.url?.startsWith("/interaction/")) {
      interact(provider, server, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(`interaction failed: ${errorMessage(error)}`);
      });
      return;
    }
    callback(req, res);
  });
  return server;
}

/** The login and consent pages: the user `server.account` signs in and approves everything asked (or declines). */
async function interact(
  provider: Provider,
  server: AuthorizationServer,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (server.denyConsent) {
    await provider.interactionFinished(req, res, {
      error: "access_denied",
      error_description: "The user declined the sign-in",
    });
    return;
  }
  if (details.prompt.name === "login") {
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: server.account } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const accountId = details.session?.accountId ?? server.account;
  const clientId = String(details.params.client_id);
  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId, clientId }))
    : new provider.Grant({ accountId, clientId });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(" "));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
