/** Options of {@link createBrowserStandIn}. */
export interface BrowserStandInOptions {
  /** Redirects followed per visit before giving up. @default 20 */
  maxRedirects?: number;
  /** Keep cookies between visits, as a browser profile does (a second sign-in finds the session). @default true */
  keepCookies?: boolean;
  /**
   * Changes a redirect before it is followed, as an attacker in the middle
   * (or a misbehaving authorization server) would: e.g. a different `iss` on
   * the way back to the client's callback. @default follows redirects as given
   */
  rewriteRedirect?: (url: URL) => URL;
}

/** A stand-in for the user's browser, for `oauth.openUrl`. */
export interface BrowserStandIn {
  /**
   * Visits `url` and follows every redirect (keeping cookies, as a browser
   * does) until a page that does not redirect, which is where an OAuth flow
   * ends: the client's loopback callback. Rejects when that page is an error.
   */
  openUrl(url: string | URL): Promise<void>;
  /** Every URL given to `openUrl`, in order. */
  readonly visits: readonly string[];
  /** What the last visit ended on: its URL, status and page text. */
  readonly lastPage: { url: string; status: number; text: string } | undefined;
  /** Forgets every cookie (a fresh browser profile). */
  clearCookies(): void;
}

/**
 * A browser without a window: what a user does in a sign-in, done with
 * `fetch`. Give its `openUrl` to `connectToServer({ …, oauth: { openUrl } })`;
 * with an authorization server that approves at once (`startOAuthFixture`, the
 * MCP conformance suite's) the flow runs to the end with no person involved.
 *
 * @example
 * const browser = createBrowserStandIn();
 * await connectToServer({ name: "x", config: fixture.config(), oauth: { storage, openUrl: browser.openUrl, interactive: true } });
 * expect(browser.visits).toHaveLength(1);
 */
export function createBrowserStandIn(options: BrowserStandInOptions = {}): BrowserStandIn {
  const maxRedirects = options.maxRedirects ?? 20;
  // Cookies are per host, not per port (RFC 6265); paths and flags do not matter here.
  const jar = new Map<string, Map<string, string>>();
  const visits: string[] = [];
  let lastPage: BrowserStandIn["lastPage"];

  const cookieHeader = (url: URL): string | undefined => {
    const cookies = jar.get(url.hostname);
    if (!cookies || cookies.size === 0) return undefined;
    return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  };
  const remember = (url: URL, response: Response): void => {
    const cookies = jar.get(url.hostname) ?? new Map<string, string>();
    jar.set(url.hostname, cookies);
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const at = pair.indexOf("=");
      if (at <= 0) continue;
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const expired = attributes.some((attribute) => {
        const [key = "", setting = ""] = attribute.split("=");
        if (key.toLowerCase() === "max-age") return Number(setting) <= 0;
        if (key.toLowerCase() === "expires") return Date.parse(setting) <= Date.now();
        return false;
      });
      if (expired || value === "") cookies.delete(name);
      else cookies.set(name, value);
    }
  };

  return {
    get visits() {
      return visits;
    },
    get lastPage() {
      return lastPage;
    },
    clearCookies: () => jar.clear(),
    async openUrl(start) {
      visits.push(String(start));
      if (options.keepCookies === false) jar.clear();
      let url = new URL(start);
      for (let hop = 0; hop <= maxRedirects; hop++) {
        const cookie = cookieHeader(url);
        const response = await fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
        remember(url, response);
        const location = response.headers.get("location");
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          url = new URL(location, url);
          if (options.rewriteRedirect) url = options.rewriteRedirect(new URL(url));
          continue;
        }
        const text = await response.text();
        lastPage = { url: url.href, status: response.status, text };
        if (response.status >= 400) {
          throw new Error(
            `the browser stand-in ended on ${url.origin}${url.pathname} with HTTP ${response.status}: ${text.slice(0, 300)}`,
          );
        }
        return;
      }
      throw new Error(
        `the browser stand-in gave up after ${maxRedirects} redirects, at ${url.origin}${url.pathname}`,
      );
    },
  };
}
