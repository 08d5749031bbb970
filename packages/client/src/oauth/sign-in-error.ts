import { type HttpAnswerFacts, McpRtError, type SignInReason } from "@mcp-rt/config";

/** What a server's challenge said, and why it cannot be answered without the user. */
export interface SignInNeed {
  reason: SignInReason;
  /** The scope the server asked for (its `WWW-Authenticate` scope), if it named one. */
  scope?: string | undefined;
  /** The protected resource metadata URL from the challenge, if any. */
  resourceMetadataUrl?: string | undefined;
  /** The authorization server the last sign-in was with, when known. */
  issuer?: string | undefined;
}

const needs = new WeakMap<Response, SignInNeed>();

/** Records that `response` (a 401 or 403) stands for a sign-in OAuth could not do without the user. */
export function markSignInNeed(response: Response, need: SignInNeed): void {
  needs.set(response, need);
}

/** The sign-in a 401 or 403 response stands for, if OAuth marked it. */
export function signInNeedOf(response: Response): SignInNeed | undefined {
  return needs.get(response);
}

/**
 * Thrown inside the OAuth provider when a step needs the user (a browser
 * sign-in) while none may happen, to stop the SDK's `auth()` before it
 * registers a client or builds an authorization URL. Never leaves the package.
 */
export class SignInNeededSignal extends Error {
  readonly reason: SignInReason;
  constructor(reason: SignInReason) {
    super(`a sign-in is needed (${reason})`);
    this.name = "SignInNeededSignal";
    this.reason = reason;
  }
}

const WHY: Record<SignInReason, string> = {
  "not-signed-in": "it needs you to sign in",
  expired: "its sign-in expired or was revoked",
  "refresh-failed": "its sign-in could not be refreshed",
  "insufficient-scope": "it asks for more access than the sign-in grants",
};

/** What an `AUTH_REQUIRED` error that a sign-in would fix is made from. */
export interface SignInRequiredInit {
  /** The server's name. */
  name: string;
  need: SignInNeed;
  /** How the message starts, e.g. `Connection to MCP server "x" failed`. @default `MCP server "<name>"` */
  lead?: string;
  /** More facts for `details` (HTTP status, URL). */
  details?: HttpAnswerFacts;
  cause?: unknown;
}

/**
 * The `SIGN_IN_REQUIRED` error of a server that needs a (new) sign-in, so a
 * manager can show `needs-auth` instead of `failed`; `details.reason` says
 * why. No token, code or secret is ever part of it.
 */
export function signInRequiredError(init: SignInRequiredInit): McpRtError {
  const { name, need } = init;
  const lead = init.lead ?? `MCP server "${name}"`;
  const scope = need.scope ? ` (scope "${need.scope}")` : "";
  return new McpRtError(
    "SIGN_IN_REQUIRED",
    `${lead}: ${WHY[need.reason]}${scope}; sign in with \`/mcp login ${name}\` in an agent session (or connect with oauth.interactive)`,
    {
      server: name,
      cause: init.cause,
      details: {
        ...init.details,
        reason: need.reason,
        ...(need.scope ? { scope: need.scope } : {}),
        ...(need.issuer ? { issuer: need.issuer } : {}),
      },
    },
  );
}

/**
 * True for an error that a sign-in would fix: the `SIGN_IN_REQUIRED` error from
 * `connectToServer`, `listTools` or `callTool` about an OAuth server with no
 * usable sign-in. Such a server should show as `needs-auth` and never enter
 * reconnect back-off; `connectToServer({ …, oauth: { interactive: true } })`
 * signs in.
 */
export function isSignInRequired(error: unknown): boolean {
  return McpRtError.isInstance(error, "SIGN_IN_REQUIRED");
}
