import type { AuthStorage } from "@mcp-rt/config";

/** How long the browser step of a sign-in may take, in ms, unless `signInTimeoutMs` says otherwise. */
export const DEFAULT_SIGN_IN_TIMEOUT_MS = 300_000;

/** OAuth for remote servers (`connectToServer`'s `oauth` option). */
export interface OAuthOptions {
  /** Where sign-ins live: client registrations and tokens, by server URL and authorization server. */
  storage: AuthStorage;
  /**
   * Run the browser step when a server needs a sign-in. Without it, such a
   * server fails at once with an `AUTH_REQUIRED` error that `isSignInRequired`
   * recognises (no browser opens at startup); stored tokens are still sent and
   * refreshed. With `true`, `connectToServer` signs in and then connects, and a
   * connection asks for a new sign-in when the server later wants more scope
   * or its sign-in expires. With `"connect"`, only `connectToServer` may sign
   * in; the connection it returns then behaves as a non-interactive one (a
   * manager's `login`: a model's tool call never opens a browser).
   * @default false
   */
  interactive?: boolean | "connect";
  /** Opens the authorization page. @default openInBrowser (the `open` package; prints the URL when it cannot) */
  openUrl?: (url: string) => void | Promise<void>;
  /** Cancels a sign-in under way (also the wait for another sign-in with the same authorization server). */
  signal?: AbortSignal;
  /** How long the user has to finish the browser step, in ms. @default 300000 */
  signInTimeoutMs?: number;
  /** The client id metadata document URL to use where a server supports one and the config names none. */
  clientMetadataUrl?: string;
  /** `client_name` of dynamic client registrations. @default "mcp-rt" */
  clientName?: string;
}
