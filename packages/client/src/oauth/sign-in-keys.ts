/** Where one sign-in lives in the auth storage: what a logout deletes. */
export interface SignInKey {
  issuer: string;
  resource: string;
}

// Every OAuth key starts with this, so API keys (`credentialId`s) never collide with one.
const PREFIX = "oauth:";

/** A URL as a key: parsed and without its fragment, so spellings of one URL meet. */
export function normalizeUrl(url: string | URL): string {
  try {
    const parsed = new URL(url);
    parsed.hash = "";
    return parsed.href;
  } catch {
    return String(url);
  }
}

/** The storage key of a server URL's OAuth binding (which issuer and resource its sign-in is with). */
export function bindingKey(serverUrl: string | URL): string {
  return `${PREFIX}server:${normalizeUrl(serverUrl)}`;
}

/** The storage key of the sign-in (registration and tokens) of one issuer and resource. */
export function signInKey(key: SignInKey): string {
  return `${PREFIX}signin:${normalizeUrl(key.issuer)} ${normalizeUrl(key.resource)}`;
}
