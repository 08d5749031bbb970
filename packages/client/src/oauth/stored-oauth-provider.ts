import type {
  OAuthClientInformationContext,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { SignInNeededSignal } from "./sign-in-error.js";
import { normalizeUrl, type SignInKey } from "./sign-in-keys.js";
import type { SignInRecords } from "./sign-in-records.js";

/** How a server's config identifies the client (from `auth: { type: "oauth" }`). */
export interface ClientIdentity {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  clientMetadataUrl?: string | undefined;
  /** `client_name` of dynamic registrations. */
  clientName: string;
}

/** Options of {@link StoredOAuthProvider}. */
export interface StoredOAuthProviderOptions {
  records: SignInRecords;
  /** The MCP server's URL. */
  serverUrl: string;
  identity: ClientIdentity;
  /**
   * `refresh`: use what is stored and refresh it; any step that needs the
   * user (registering, the browser) stops `auth()` with a {@link SignInNeededSignal}.
   * `sign-in`: the whole flow, with `redirectUrl` listening.
   */
  mode: "refresh" | "sign-in";
  /** The loopback callback's URL (sign-in mode). */
  redirectUrl?: string | undefined;
  /** The scope this sign-in asks for (sign-in mode). */
  scope?: string | undefined;
  /** The `state` the callback must bring back (sign-in mode). */
  state?: string | undefined;
  /** Discovery already done, handed to `auth()` so it does not run it again. */
  discovery?: OAuthDiscoveryState | undefined;
  /** Receives the authorization URL (sign-in mode). */
  onAuthorizationUrl?: ((url: URL) => void) | undefined;
}

// A redirect URI is needed to be an interactive client at all; in refresh mode nothing is ever sent to it.
const PLACEHOLDER_REDIRECT = "http://127.0.0.1/callback";

/** True when every scope of `wanted` is in `granted` (an empty `wanted` always is). */
export function scopeCovers(granted: string | undefined, wanted: string | undefined): boolean {
  const have = new Set((granted ?? "").split(" ").filter(Boolean));
  return (wanted ?? "").split(" ").every((scope) => scope === "" || have.has(scope));
}

/**
 * The SDK's `OAuthClientProvider` over {@link SignInRecords}: the client
 * identity in the order a configured `clientId` (with its secret), a stored
 * registration (client id metadata document or dynamic registration, kept and
 * reused), then whatever `auth()` does when there is none (a metadata document
 * URL where the server supports one, else dynamic registration); tokens with
 * their expiry and scope; the PKCE verifier while a flow runs. Everything it
 * stores is keyed by the authorization server and resource that discovery
 * found, so the SDK's `auth()` decides every protocol step.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  readonly #options: StoredOAuthProviderOptions;
  #discovery: OAuthDiscoveryState | undefined;
  #key: SignInKey | undefined;
  // The refresh token `auth()` last read, to tell a refused one from one another process replaced.
  #refreshTokenRead: string | undefined;
  /** Set when `auth()` dropped the stored tokens because the authorization server refused them. */
  tokensRefused = false;
  /** The identity's client metadata document URL; absent when it has none (declared, so never an own `undefined`). */
  declare readonly clientMetadataUrl?: string;

  constructor(options: StoredOAuthProviderOptions) {
    this.#options = options;
    if (options.identity.clientMetadataUrl !== undefined)
      this.clientMetadataUrl = options.identity.clientMetadataUrl;
    this.#discovery = options.discovery;
    if (options.discovery) this.#key = keyOf(options.serverUrl, options.discovery);
  }

  /** The sign-in `auth()` worked on, once discovery has run. */
  get signInKey(): SignInKey | undefined {
    return this.#key;
  }

  get redirectUrl(): string {
    return this.#options.redirectUrl ?? PLACEHOLDER_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const metadata: OAuthClientMetadata & { application_type: string } = {
      client_name: this.#options.identity.clientName,
      redirect_uris: [this.redirectUrl],
      // No `grant_types`: the SDK registers ["authorization_code", "refresh_token"] by default, and a
      // `refresh_token` here would also add `offline_access` to the scope the browser is sent to ask for.
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      // A native app on a loopback address: servers then accept the callback on any port (RFC 8252).
      application_type: "native",
    };
    return metadata;
  }

  state(): string {
    return this.#options.state ?? "";
  }

  async clientInformation(
    context?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    const { identity, mode } = this.#options;
    if (identity.clientId !== undefined) {
      // The config's client id is for whichever authorization server the server names: it carries
      // the issuer stamp of the one asking (the SDK binds stored credentials to their issuer).
      return {
        client_id: identity.clientId,
        client_secret: identity.clientSecret,
        ...(context ? { issuer: context.issuer } : {}),
      };
    }
    const stored = (await this.#record())?.client;
    const usable =
      stored &&
      (stored.source === "cimd"
        ? stored.info.client_id === identity.clientMetadataUrl
        : mode === "refresh" || this.#registrationFits(stored.info));
    if (usable) return stored.info;
    // Registering needs a redirect URI that listens, and may as well wait for the sign-in.
    if (mode === "refresh") throw new SignInNeededSignal(this.tokensRefused ? "expired" : "not-signed-in");
    return undefined;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    if (this.#options.identity.clientId !== undefined) return; // the config is where it lives
    const source = info.client_id === this.#options.identity.clientMetadataUrl ? "cimd" : "dcr";
    await this.#update((record) => ({ ...record, client: { info, source } }));
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    const record = await this.#record();
    let tokens = record?.tokens;
    // A sign-in for more scope must not end in a refresh that grants the same scope again.
    if (tokens && this.#options.mode === "sign-in" && !scopeCovers(record?.scope, this.#options.scope)) {
      tokens = undefined;
    }
    this.#refreshTokenRead = tokens?.refresh_token;
    return tokens;
  }

  /** Stores the tokens as the SDK gives them: its `issuer` stamp is read back with them. */
  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const now = Date.now();
    await this.#update((record) => ({
      ...record,
      tokens,
      savedAt: now,
      expiresAt: typeof tokens.expires_in === "number" ? now + tokens.expires_in * 1000 : undefined,
      scope: tokens.scope ?? this.#options.scope ?? record.scope,
    }));
  }

  redirectToAuthorization(url: URL): void {
    if (this.#options.mode === "refresh" || !this.#options.onAuthorizationUrl) {
      throw new SignInNeededSignal(this.tokensRefused ? "expired" : "not-signed-in");
    }
    this.#options.onAuthorizationUrl(url);
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    // The last step before the browser: nothing of a flow that cannot finish is stored.
    if (this.#options.mode === "refresh") {
      throw new SignInNeededSignal(this.tokensRefused ? "expired" : "not-signed-in");
    }
    await this.#update((record) => ({ ...record, verifier }));
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.#record())?.verifier;
    if (verifier === undefined) throw new Error("no PKCE code verifier is stored for this sign-in");
    return verifier;
  }

  /** Removes the verifier once the flow is over, whichever way it ended. */
  async forgetVerifier(): Promise<void> {
    if (this.#key) await this.#update((record) => ({ ...record, verifier: undefined }));
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "discovery") {
      this.#discovery = undefined;
      return;
    }
    if (scope === "all" || scope === "tokens") this.tokensRefused = true;
    const used = this.#refreshTokenRead;
    await this.#update((record) => {
      const next = { ...record };
      if (scope === "all" || scope === "client") next.client = undefined;
      // Another process may have refreshed (and rotated) meanwhile: keep its tokens.
      const replaced = used !== undefined && record.tokens?.refresh_token !== used;
      if ((scope === "all" || scope === "tokens") && !replaced) {
        next.tokens = undefined;
        next.expiresAt = undefined;
        next.savedAt = undefined;
      }
      if (scope !== "client") next.verifier = undefined;
      return next;
    });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.#discovery = state;
    this.#key = keyOf(this.#options.serverUrl, state);
    await this.#options.records.writeBinding(this.#options.serverUrl, {
      issuer: this.#key.issuer,
      resource: this.#key.resource,
      resourceMetadataUrl: state.resourceMetadataUrl,
      resourceMetadata: state.resourceMetadata,
    });
  }

  /** True when a stored dynamic registration can serve this sign-in: same redirect URI, and it may ask for the scope. */
  #registrationFits(info: OAuthClientInformationMixed): boolean {
    const uris = "redirect_uris" in info && Array.isArray(info.redirect_uris) ? info.redirect_uris : [];
    if (!uris.map(String).includes(this.redirectUrl)) return false;
    const registered = "scope" in info && typeof info.scope === "string" ? info.scope : undefined;
    return registered === undefined || scopeCovers(registered, this.#options.scope);
  }

  async #record() {
    return this.#key ? this.#options.records.readSignIn(this.#key) : undefined;
  }

  async #update(change: Parameters<SignInRecords["updateSignIn"]>[1]): Promise<void> {
    if (!this.#key) throw new Error("OAuth discovery has not run yet");
    await this.#options.records.updateSignIn(this.#key, change);
  }
}

/** The sign-in a discovery result points at: its authorization server, and the resource (else the server URL). */
export function keyOf(serverUrl: string, state: OAuthDiscoveryState): SignInKey {
  return {
    issuer: normalizeUrl(state.authorizationServerUrl),
    resource: normalizeUrl(state.resourceMetadata?.resource ?? serverUrl),
  };
}
