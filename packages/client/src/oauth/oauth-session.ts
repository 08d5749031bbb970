import { type MCPAuthConfig, type MCPHttpServerConfig, McpRtError } from "@mcp-rt/config";
import { errorText } from "@mcp-rt/config/util";
import { auth, extractWWWAuthenticateParams, type FetchLike } from "@modelcontextprotocol/client";
import { mayUseOAuth } from "./may-use-oauth.js";
import type { OAuthOptions } from "./oauth-options.js";
import { principalOf } from "./principal.js";
import { isSameOrigin } from "./same-origin.js";
import { markSignInNeed, type SignInNeed, SignInNeededSignal } from "./sign-in-error.js";
import { runSignIn } from "./sign-in-flow.js";
import { type SignInKey, signInKey } from "./sign-in-keys.js";
import { type SignInRecord, SignInRecords } from "./sign-in-records.js";
import { type ClientIdentity, StoredOAuthProvider } from "./stored-oauth-provider.js";

/** The OAuth block of a config. */
export type OAuthAuthConfig = Extract<MCPAuthConfig, { type: "oauth" }>;

/** What an {@link OAuthSession} is made from. */
export interface OAuthSessionInit {
  /** The server's name, for messages. */
  name: string;
  /** The server's endpoint. */
  serverUrl: URL;
  /** The config's `auth` block; `undefined` for a server with none (OAuth only when a 401 asks for a Bearer token). */
  auth: OAuthAuthConfig | undefined;
  options: OAuthOptions;
  /** The config file the server came from, for messages. */
  sourcePath?: string | undefined;
  /** The fetch below (authorization server requests go straight to it). @default globalThis.fetch */
  fetch?: FetchLike | undefined;
}

// Browser sign-ins one connection may start on its own (step-ups included), so a server that keeps refusing cannot loop.
const MAX_SIGN_INS = 3;
// Refresh this long before expiry (at most a tenth of the token's lifetime).
const REFRESH_MARGIN_MS = 60_000;

const refreshes = new Map<string, Promise<"refreshed" | SignInNeed>>();

function union(...scopes: Array<string | undefined>): string | undefined {
  const all = [...new Set(scopes.flatMap((scope) => (scope ?? "").split(" ").filter(Boolean)))];
  return all.length > 0 ? all.join(" ") : undefined;
}

/**
 * One connection's OAuth: a fetch for its transport that sends the stored
 * access token to the server's origin (and to no other), refreshes it shortly
 * before it expires and once on a 401, and otherwise marks the 401 or 403 as
 * needing a sign-in; when `interactive`, it runs the browser sign-in and
 * retries the request instead. All protocol steps are the SDK's `auth()`.
 */
export class OAuthSession {
  /** Whether a request that needs the user may start a browser sign-in. */
  interactive = false;
  /** What the last unanswerable challenge asked for. */
  lastNeed: SignInNeed | undefined;
  readonly #init: OAuthSessionInit;
  readonly #records: SignInRecords;
  readonly #base: FetchLike;
  readonly #identity: ClientIdentity;
  #cached: { key: SignInKey; record: SignInRecord } | undefined;
  // The last read of the storage (a server with no sign-in is not read again until a 401).
  #loading: Promise<{ key: SignInKey; record: SignInRecord } | undefined> | undefined;
  #signIns = 0;

  /**
   * The session for a remote server that OAuth may serve: one with
   * `auth: { type: "oauth" }`, or with no `auth` and no `Authorization`
   * header of the user's own (credentials in the headers are theirs to manage).
   */
  static forServer({
    name,
    config,
    options,
    sourcePath,
  }: Pick<OAuthSessionInit, "name" | "options" | "sourcePath"> & {
    config: MCPHttpServerConfig;
  }): OAuthSession | undefined {
    if (!mayUseOAuth(config)) return undefined;
    let serverUrl: URL;
    try {
      serverUrl = new URL(config.url);
    } catch {
      return undefined; // the transport reports the bad URL
    }
    return new OAuthSession({
      name,
      serverUrl,
      auth: config.auth as OAuthAuthConfig | undefined,
      options,
      sourcePath,
    });
  }

  constructor(init: OAuthSessionInit) {
    this.#init = init;
    this.#records = new SignInRecords(init.options.storage);
    this.#base = init.fetch ?? ((url, requestInit) => fetch(url, requestInit));
    this.#identity = {
      clientId: init.auth?.clientId,
      clientSecret: init.auth?.clientSecret,
      clientMetadataUrl: init.auth?.clientMetadataUrl ?? init.options.clientMetadataUrl,
      clientName: init.options.clientName ?? "mcp-rt",
    };
  }

  /** The fetch to give the transport. */
  readonly fetch: FetchLike = async (input, init) => {
    const target = new URL(input instanceof Request ? input.url : String(input));
    if (!isSameOrigin(this.#init.serverUrl, target)) return this.#base(input, init);
    const replayable = init?.body === undefined || init.body === null || typeof init.body === "string";
    const send = (token: string | undefined): Promise<Response> => {
      const headers = new Headers(init?.headers);
      if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
      return this.#base(input, { ...init, headers });
    };
    const signal = init?.signal ?? undefined;
    const sent = await this.#accessToken();
    let response = await send(sent);
    let need: SignInNeed | undefined;
    if (response.status === 401 && this.#isOAuthChallenge(response)) {
      need = await this.#recover(response, sent, signal);
      if (need === undefined && replayable) {
        await response.body?.cancel();
        response = await send(await this.#accessToken());
      }
    }
    // Also after a sign-in for a 401: the new token may lack a scope this request needs.
    if (response.status === 403) {
      const challenge = extractWWWAuthenticateParams(response);
      if (challenge.error === "insufficient_scope") {
        need = {
          reason: "insufficient-scope",
          scope: union(this.#cached?.record.scope, this.#init.auth?.scope, challenge.scope),
          resourceMetadataUrl: challenge.resourceMetadataUrl?.href,
        };
        if (this.#maySignIn() && replayable) {
          await this.signIn(need, signal);
          await response.body?.cancel();
          response = await send(await this.#accessToken());
        }
      }
    }
    if (need && (response.status === 401 || response.status === 403)) {
      this.lastNeed = need;
      markSignInNeed(response, need);
    }
    return response;
  };

  /**
   * The browser sign-in, for this server: discovery, then (one sign-in per
   * authorization server at a time) registration if needed, the browser step
   * at `openUrl` with a loopback callback, and the code exchange.
   *
   * @throws McpRtError `SIGN_IN_REQUIRED` (`details.failure`) when the sign-in
   *   cannot complete, `ABORTED` when `signal` or `oauth.signal` aborts it.
   */
  async signIn(need: SignInNeed, signal?: AbortSignal): Promise<void> {
    this.#signIns++;
    await runSignIn(
      {
        name: this.#init.name,
        serverUrl: this.#init.serverUrl.href,
        sourcePath: this.#init.sourcePath,
        records: this.#records,
        identity: this.#identity,
        configScope: this.#init.auth?.scope,
        callbackPort: this.#init.auth?.callbackPort,
        options: this.#init.options,
        fetch: this.#base,
      },
      { ...need, staleAccessToken: this.#cached?.record.tokens?.access_token },
      signal,
    );
    await this.#load(true);
  }

  #maySignIn(): boolean {
    return this.interactive && this.#signIns < MAX_SIGN_INS;
  }

  /** With an `auth` block every 401 is OAuth's; without one, only a 401 that asks for a Bearer token. */
  #isOAuthChallenge(response: Response): boolean {
    if (this.#init.auth !== undefined) return true;
    return /^\s*bearer\b/i.test(response.headers.get("www-authenticate") ?? "");
  }

  /** What a 401 needs: `undefined` once a token to retry with is stored, else why none is. */
  async #recover(response: Response, sent: string | undefined, signal: AbortSignal | undefined) {
    const challenge = extractWWWAuthenticateParams(response);
    const found = await this.#load(true);
    // Another connection (or process) refreshed meanwhile.
    const current = found?.record.tokens?.access_token;
    if (current !== undefined && current !== sent) return undefined;
    let need: SignInNeed = { reason: found?.record.tokens ? "expired" : "not-signed-in" };
    if (found?.record.tokens?.refresh_token) {
      const outcome = await this.#refresh(found.key, {
        fresh: true,
        resourceMetadataUrl: challenge.resourceMetadataUrl,
      });
      if (outcome === "refreshed") {
        await this.#load(true);
        return undefined;
      }
      need = outcome;
    }
    need = {
      ...need,
      scope: union(this.#init.auth?.scope, challenge.scope),
      resourceMetadataUrl: challenge.resourceMetadataUrl?.href,
      ...(found ? { issuer: found.key.issuer } : {}),
    };
    if (!this.#maySignIn()) return need;
    await this.signIn(need, signal);
    return undefined;
  }

  /** The access token to send, refreshed first when it is about to expire. */
  async #accessToken(): Promise<string | undefined> {
    let found = await this.#load(false);
    const record = found?.record;
    if (!found || !record?.tokens) return undefined;
    if (record.tokens.refresh_token && record.expiresAt !== undefined) {
      const lifetime = record.expiresAt - (record.savedAt ?? record.expiresAt);
      const margin = Math.min(REFRESH_MARGIN_MS, Math.max(0, lifetime / 10));
      if (Date.now() >= record.expiresAt - margin) {
        // A failed refresh leaves the old token, which may still work; a 401 says when it does not.
        if ((await this.#refresh(found.key, { fresh: false })) === "refreshed")
          found = await this.#load(true);
      }
    }
    return found?.record.tokens?.access_token;
  }

  /** Refreshes the tokens of `key` through `auth()`, once at a time per sign-in in this process. */
  #refresh(key: SignInKey, how: { fresh: boolean; resourceMetadataUrl?: URL | undefined }) {
    const id = signInKey(key);
    let running = refreshes.get(id);
    if (!running) {
      running = this.#runRefresh(how).finally(() => refreshes.delete(id));
      refreshes.set(id, running);
    }
    return running;
  }

  async #runRefresh(how: {
    fresh: boolean;
    resourceMetadataUrl?: URL | undefined;
  }): Promise<"refreshed" | SignInNeed> {
    const server = how.fresh ? undefined : await this.#records.readBinding(this.#init.serverUrl);
    const provider = new StoredOAuthProvider({
      records: this.#records,
      serverUrl: this.#init.serverUrl.href,
      identity: this.#identity,
      mode: "refresh",
      discovery: server && {
        authorizationServerUrl: server.issuer,
        ...(server.resourceMetadataUrl === undefined
          ? {}
          : { resourceMetadataUrl: server.resourceMetadataUrl }),
        ...(server.resourceMetadata === undefined ? {} : { resourceMetadata: server.resourceMetadata }),
      },
    });
    try {
      const result = await auth(provider, {
        serverUrl: this.#init.serverUrl,
        fetchFn: this.#base,
        ...(how.resourceMetadataUrl ? { resourceMetadataUrl: how.resourceMetadataUrl } : {}),
      });
      return result === "AUTHORIZED" ? "refreshed" : { reason: "not-signed-in" };
    } catch (error) {
      if (error instanceof SignInNeededSignal) return { reason: error.reason };
      // The authorization server failed or could not be reached: the tokens stay for the next try.
      return { reason: "refresh-failed" };
    }
  }

  /**
   * Who this session signs in as, as last read from the storage
   * (`principalOf`): its issuer and resource with the ID token's `sub`, else
   * its refresh or access token. Only ever digested (`authContextOf`);
   * `undefined` before a sign-in.
   */
  principal(): string | undefined {
    const cached = this.#cached;
    const tokens = cached?.record.tokens;
    return cached && tokens ? principalOf(cached.key, tokens) : undefined;
  }

  /** This server's sign-in record, from memory or (`force`) from the storage. */
  #load(force: boolean): Promise<{ key: SignInKey; record: SignInRecord } | undefined> {
    if (!this.#loading || force) this.#loading = this.#read();
    return this.#loading;
  }

  async #read(): Promise<{ key: SignInKey; record: SignInRecord } | undefined> {
    try {
      const server = await this.#records.readBinding(this.#init.serverUrl);
      const key = server && { issuer: server.issuer, resource: server.resource };
      const record = key && (await this.#records.readSignIn(key));
      this.#cached = key && record ? { key, record } : undefined;
      return this.#cached;
    } catch (error) {
      this.#loading = undefined;
      throw new McpRtError(
        "AUTH_REQUIRED",
        `MCP server "${this.#init.name}": its sign-in could not be read from the auth storage (${errorText(error)}); check that the storage is reachable`,
        { server: this.#init.name, cause: error },
      );
    }
  }
}
