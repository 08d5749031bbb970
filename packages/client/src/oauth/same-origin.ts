// The one rule for where a credential may go: the OAuth session's access token here, and the
// config's headers and a followed redirect in remote/remote-fetch.ts.

/** True when `to` has exactly the scheme, host and port of `from`. */
export function isSameOrigin(from: URL, to: URL): boolean {
  return from.protocol === to.protocol && from.host === to.host;
}
