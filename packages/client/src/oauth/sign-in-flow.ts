import { McpRtError, type SignInFailureKind } from "@mcp-rt/config";
import { errorText, inConfig, timerMs } from "@mcp-rt/config/util";
import {
  auth,
  discoverOAuthServerInfo,
  type FetchLike,
  IssuerMismatchError,
  type OAuthDiscoveryState,
  OAuthError,
} from "@modelcontextprotocol/client";
import { withIssuerLock } from "./issuer-lock.js";
import { CallbackError, type CallbackFailure, startLoopbackCallback } from "./loopback-callback.js";
import { networkErrorOf } from "./network-error.js";
import { DEFAULT_SIGN_IN_TIMEOUT_MS, type OAuthOptions } from "./oauth-options.js";
import { openInBrowser } from "./open-in-browser.js";
import type { SignInNeed } from "./sign-in-error.js";
import type { SignInRecord, SignInRecords } from "./sign-in-records.js";
import { type ClientIdentity, keyOf, StoredOAuthProvider, scopeCovers } from "./stored-oauth-provider.js";

/** Everything a sign-in needs to know about the server and the caller. */
export interface SignInContext {
  name: string;
  serverUrl: string;
  sourcePath: string | undefined;
  records: SignInRecords;
  identity: ClientIdentity;
  /** The config's `auth.scope`. */
  configScope: string | undefined;
  /** The config's `auth.callbackPort`. */
  callbackPort: number | undefined;
  options: OAuthOptions;
  /** The plain fetch (no bearer token) for discovery and the authorization server. */
  fetch: FetchLike;
}

/** The authorization server has no way for this client to register (no registration endpoint, no metadata document). */
class NoRegistration extends Error {}

/** Why the session asks for a sign-in, and the access token it had (a sign-in that finished meanwhile replaced it). */
export type SignInRequest = SignInNeed & { staleAccessToken?: string | undefined };

/** A failure while signing in, for the error: what happened and whether it is the config's fault. */
class SignInFailure extends Error {
  readonly kind: SignInFailureKind;
  constructor(kind: SignInFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

function scopeOf(context: SignInContext, need: SignInNeed): string | undefined {
  const all = [context.configScope, need.scope].flatMap((scope) => (scope ?? "").split(" ").filter(Boolean));
  return all.length > 0 ? [...new Set(all)].join(" ") : undefined;
}

/** The port of a loopback redirect URI a stored registration names, to listen there again. */
function registeredPort(record: SignInRecord | undefined): number | undefined {
  const info = record?.client?.source === "dcr" ? record.client.info : undefined;
  const uris: unknown = info && "redirect_uris" in info ? info.redirect_uris : undefined;
  const uri = Array.isArray(uris) ? uris[0] : undefined;
  if (uri === undefined) return undefined;
  try {
    const url = new URL(String(uri));
    return url.hostname === "127.0.0.1" && url.port !== "" ? Number(url.port) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Signs in to one server: discovers its authorization server, then (waiting
 * for any sign-in with the same authorization server to finish, and skipping
 * the rest when that one already got what this one needs) listens on a
 * loopback callback, lets the SDK's `auth()` register the client if needed and
 * build the authorization URL, opens it with `openUrl`, waits for the code
 * (checking `state`, within the time limit, cancellable) and lets `auth()`
 * exchange it. The PKCE verifier is stored only while this runs.
 */
export async function runSignIn(
  context: SignInContext,
  request: SignInRequest,
  signal?: AbortSignal,
): Promise<void> {
  const signals = [context.options.signal, signal].filter((s): s is AbortSignal => s !== undefined);
  const abort = signals.length > 0 ? AbortSignal.any(signals) : undefined;
  const scope = scopeOf(context, request);
  const resourceMetadataUrl = request.resourceMetadataUrl ? new URL(request.resourceMetadataUrl) : undefined;
  let issuer: string | undefined;
  try {
    abort?.throwIfAborted();
    const info = await discoverOAuthServerInfo(context.serverUrl, {
      ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      fetchFn: context.fetch,
    }).catch((error: unknown) => {
      // Metadata that names another issuer than its URL was built from (RFC 8414 §3.3) explains itself.
      if (IssuerMismatchError.isInstance(error)) throw error;
      throw new SignInFailure(
        "discovery",
        `could not discover its authorization server (${errorText(error)})`,
        {
          cause: error,
        },
      );
    });
    const discovery: OAuthDiscoveryState = {
      ...info,
      ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: resourceMetadataUrl.href }),
    };
    const key = keyOf(context.serverUrl, discovery);
    issuer = key.issuer;
    await withIssuerLock(
      key.issuer,
      async () => {
        const record = await context.records.readSignIn(key);
        const tokens = record?.tokens;
        // Unless another server on this sign-in finished it while this one waited.
        if (
          !tokens ||
          tokens.access_token === request.staleAccessToken ||
          !scopeCovers(record.scope, scope)
        ) {
          await browserStep(context, { discovery, scope, resourceMetadataUrl, record, abort });
        }
        // From now on this server's requests (and a restart) find the sign-in without discovery.
        await context.records.writeBinding(context.serverUrl, {
          issuer: key.issuer,
          resource: key.resource,
          resourceMetadataUrl: discovery.resourceMetadataUrl,
          resourceMetadata: discovery.resourceMetadata,
        });
      },
      abort,
    );
  } catch (error) {
    throw toSignInError(context, issuer, error, abort);
  }
}

async function browserStep(
  context: SignInContext,
  step: {
    discovery: OAuthDiscoveryState;
    scope: string | undefined;
    resourceMetadataUrl: URL | undefined;
    record: SignInRecord | undefined;
    abort: AbortSignal | undefined;
  },
): Promise<void> {
  const callback = await startLoopbackCallback({
    port: context.callbackPort,
    preferredPort: registeredPort(step.record),
    serverName: context.name,
  });
  const openUrl = context.options.openUrl ?? ((url: string) => openInBrowser(url));
  let openFailed: ((error: unknown) => void) | undefined;
  const opening = new Promise<never>((_, reject) => {
    openFailed = reject;
  });
  const provider = new StoredOAuthProvider({
    records: context.records,
    serverUrl: context.serverUrl,
    identity: context.identity,
    mode: "sign-in",
    redirectUrl: callback.redirectUrl,
    scope: step.scope,
    state: callback.state,
    discovery: step.discovery,
    onAuthorizationUrl: (url) => {
      Promise.resolve()
        .then(() => openUrl(url.href))
        .catch((error: unknown) =>
          openFailed?.(
            new SignInFailure("open", `could not open the sign-in page (${errorText(error)})`, {
              cause: error,
            }),
          ),
        );
    },
  });
  const options = {
    serverUrl: context.serverUrl,
    fetchFn: context.fetch,
    ...(step.scope ? { scope: step.scope } : {}),
    ...(step.resourceMetadataUrl ? { resourceMetadataUrl: step.resourceMetadataUrl } : {}),
  };
  try {
    // Known before `auth()` tries and fails with an error only its text tells apart.
    if (!(await canIdentify(provider, step.discovery))) throw new NoRegistration();
    // "AUTHORIZED" at once: a stored refresh token already covered the scope.
    if ((await auth(provider, options)) === "AUTHORIZED") return;
    const query = await Promise.race([
      callback.waitForCode({
        timeoutMs: timerMs(context.options.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS),
        signal: step.abort,
      }),
      opening,
    ]);
    // The callback's `iss` goes with the code: `auth()` checks it names the authorization server
    // the browser was sent to (RFC 9207), and refuses the code otherwise.
    const iss = query.get("iss");
    await auth(provider, {
      ...options,
      authorizationCode: query.get("code") ?? "",
      ...(iss === null ? {} : { iss }),
    });
  } finally {
    opening.catch(() => undefined);
    await callback.close();
    await provider.forgetVerifier().catch(() => undefined);
  }
}

/**
 * Whether `auth()` will have a client id to use: one configured or stored,
 * a client id metadata document the authorization server accepts, or a
 * registration endpoint (or no metadata at all: then `auth()` tries `/register`).
 */
async function canIdentify(provider: StoredOAuthProvider, discovery: OAuthDiscoveryState): Promise<boolean> {
  const metadata = discovery.authorizationServerMetadata;
  if (!metadata || metadata.registration_endpoint) return true;
  if (provider.clientMetadataUrl && metadata.client_id_metadata_document_supported === true) return true;
  return (await provider.clientInformation()) !== undefined;
}

function describeCallbackFailure(
  failure: CallbackFailure,
  context: SignInContext,
): { kind: SignInFailureKind; message: string } {
  switch (failure.kind) {
    case "port-taken":
      return {
        kind: failure.kind,
        message: `${failure.message}; close that program, or change "auth.callbackPort" ${inConfig(context.sourcePath)}`,
      };
    case "denied":
      return {
        kind: failure.kind,
        message: `the sign-in was not granted (${failure.error}${failure.description ? `: ${failure.description}` : ""}); sign in again and approve the access`,
      };
    case "timeout":
      return {
        kind: failure.kind,
        message: `the sign-in was not finished in the browser within ${failure.ms >= 1000 ? `${Math.round(failure.ms / 1000)} s` : `${failure.ms} ms`}; start it again (or raise oauth.signInTimeoutMs)`,
      };
    case "aborted":
      return { kind: failure.kind, message: "aborted" };
  }
}

/**
 * Why the SDK refused an issuer, in words. The `iss` of an authorization
 * response is whatever the browser brought back (a mix-up attack names
 * another server there): it is never shown, only the expected issuer is.
 */
function issuerMismatchText(error: IssuerMismatchError, at: string): string {
  const expected = error.expected === undefined ? at : ` ${JSON.stringify(error.expected)}`;
  if (error.kind === "metadata") {
    return `the authorization server metadata fetched for${expected} names another issuer (${JSON.stringify(error.received ?? null)}), so it may belong to another server (RFC 8414 §3.3); the sign-in was refused. Ask the server's operator to fix the metadata's "issuer"`;
  }
  const problem =
    error.received === undefined
      ? "came back without the `iss` its authorization server promises to send"
      : "came back naming another authorization server in its `iss`";
  return `the sign-in response ${problem} (expected${expected}, RFC 9207); the code was not used, as the response may come from another server (a mix-up attack). Sign in again; if it persists, the authorization server is misconfigured`;
}

/** The error a failed sign-in ends with: `ABORTED`, or `SIGN_IN_REQUIRED` (the server still needs one) saying why. */
function toSignInError(
  context: SignInContext,
  issuer: string | undefined,
  error: unknown,
  abort: AbortSignal | undefined,
): McpRtError {
  const name = context.name;
  if (abort?.aborted || (error instanceof CallbackError && error.failure.kind === "aborted")) {
    return new McpRtError("ABORTED", `Signing in to MCP server "${name}" was aborted`, {
      server: name,
      cause: abort?.reason ?? error,
    });
  }
  const at = issuer ? ` at ${issuer}` : "";
  let kind: SignInFailureKind = "authorization-server";
  let what: string;
  if (error instanceof CallbackError) {
    ({ kind, message: what } = describeCallbackFailure(error.failure, context));
  } else if (error instanceof SignInFailure) {
    kind = error.kind;
    what = error.message;
  } else if (IssuerMismatchError.isInstance(error)) {
    kind = "issuer-mismatch";
    what = issuerMismatchText(error, at);
  } else if (error instanceof NoRegistration) {
    kind = "no-registration";
    what = `the authorization server${at} does not register clients dynamically; register mcp-rt there and set "auth.clientId" (and "auth.clientSecret") ${inConfig(context.sourcePath)}`;
  } else if (error instanceof OAuthError) {
    what = `the authorization server${at} refused (${error.code}${error.message ? `: ${error.message}` : ""})`;
  } else if (networkErrorOf(error)) {
    kind = "unreachable";
    what = `cannot reach the authorization server${at} (${networkErrorOf(error)?.message})`;
  } else {
    what = `${errorText(error)}${at ? ` (authorization server${at})` : ""}`;
  }
  return new McpRtError("SIGN_IN_REQUIRED", `Cannot sign in to MCP server "${name}": ${what}`, {
    server: name,
    cause: error,
    details: { reason: "not-signed-in", failure: kind, ...(issuer ? { issuer } : {}) },
  });
}
