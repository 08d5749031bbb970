/**
 * Whether `url` matches a `serverUrl` pattern as Claude Code's managed policy
 * documents it: `*` stands for any run of characters, anywhere, the scheme
 * included; the host is compared without case and without a trailing FQDN
 * dot; the path keeps its case; a pattern with no path matches any path.
 *
 * Undocumented, read safely: the query, the fragment and any `user@` part
 * of the server's URL are left out (a deny pattern for `https://x/mcp` also
 * catches `https://x/mcp?a=1`), and a default port is compared as absent,
 * as `URL` writes it. A URL that does not parse matches nothing.
 *
 * @example
 * ```ts
 * matchesUrlPattern("https://*.example.com/*", "https://Api.Example.com./mcp"); // true
 * matchesUrlPattern("https://mcp.example.com", "https://mcp.example.com/any/path"); // true
 * ```
 */
export function matchesUrlPattern(pattern: string, url: string): boolean {
  const wanted = splitPattern(pattern);
  const actual = splitUrl(url);
  if (wanted === undefined || actual === undefined) return false;
  return (
    glob(wanted.scheme.toLowerCase()).test(actual.scheme) &&
    glob(hostWithoutDot(wanted.authority.toLowerCase())).test(actual.authority) &&
    (wanted.path === undefined || glob(wanted.path).test(actual.path))
  );
}

/** Why `pattern` cannot be a `serverUrl` pattern, or `undefined` when it can. */
export function urlPatternProblem(pattern: string): string | undefined {
  if (pattern.trim() === "")
    return "must be a URL pattern such as https://mcp.example.com/*, got an empty string";
  if (splitPattern(pattern) === undefined) {
    return `must be a URL pattern with a scheme and a host, such as https://mcp.example.com/*, got ${JSON.stringify(pattern)}`;
  }
  return undefined;
}

interface UrlParts {
  scheme: string;
  authority: string;
  /** Absent in a pattern written without a path. */
  path?: string;
}

function splitPattern(pattern: string): UrlParts | undefined {
  const at = pattern.indexOf("://");
  if (at <= 0) return undefined;
  const rest = pattern.slice(at + 3);
  const slash = rest.indexOf("/");
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  if (authority === "") return undefined;
  return {
    scheme: pattern.slice(0, at),
    authority,
    ...(slash === -1 ? {} : { path: rest.slice(slash) }),
  };
}

function splitUrl(url: string): Required<UrlParts> | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const host = parsed.hostname.replace(/\.$/, "");
  return {
    scheme: parsed.protocol.replace(/:$/, "").toLowerCase(),
    authority: parsed.port === "" ? host : `${host}:${parsed.port}`,
    path: parsed.pathname,
  };
}

// `mcp.example.com.:8443` → `mcp.example.com:8443`.
function hostWithoutDot(authority: string): string {
  return authority.replace(/\.(?=(:[^:]*)?$)/, "");
}

function glob(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[\\^$.+?()[\]{}|]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "s");
}
