import { type MCPHttpServerConfig, McpRtError, redactUrl } from "@mcp-rt/config";
import { inConfig } from "@mcp-rt/config/util";
import type { FetchLike, OAuthClientProvider } from "@modelcontextprotocol/client";
import type { RemoteClientTransport } from "../client-transport.js";
import { createRemoteTransport } from "./remote-transport.js";

/** What a remote transport needs besides the config. */
export interface TransportContext {
  /** Which transport to build (a config without `type` is tried as `http`, then `sse`). */
  kind: "http" | "sse";
  /** See `ConnectOptions.authProvider`. */
  authProvider?: OAuthClientProvider | undefined;
  /** The fetch under a remote transport's own (the OAuth session's, which sends and refreshes tokens). */
  fetch?: FetchLike | undefined;
  /** Aborts a pending transport start (the connect signal and deadline). */
  signal?: AbortSignal | undefined;
  /** The config file the server came from, for messages. */
  sourcePath?: string | undefined;
  /** See `ConnectOptions.maxMessageBytes`. */
  maxMessageBytes?: number | undefined;
}

/** Builds the remote transport of `kind` for a `url` config, its `url` and `headers` checked. */
export function createTransport(
  name: string,
  config: MCPHttpServerConfig,
  context: TransportContext,
): RemoteClientTransport {
  return createRemoteTransport({
    kind: context.kind,
    name,
    url: remoteUrl(name, config, context.sourcePath),
    headers: remoteHeaders(name, config, context.sourcePath),
    authProvider: context.authProvider,
    fetch: context.fetch,
    signal: context.signal,
    sourcePath: context.sourcePath,
    maxMessageBytes: context.maxMessageBytes,
  });
}

/** The config's `headers`, checked: `CONFIG_INVALID` naming the first header that HTTP cannot carry. */
function remoteHeaders(
  name: string,
  config: MCPHttpServerConfig,
  sourcePath: string | undefined,
): Record<string, string> | undefined {
  const headers: unknown = config.headers;
  if (headers === undefined) return undefined;
  const invalid = (message: string): McpRtError =>
    new McpRtError(
      "CONFIG_INVALID",
      `MCP server "${name}" has invalid "headers": ${message} (fix it ${inConfig(sourcePath)})`,
      {
        server: name,
      },
    );
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) {
    throw invalid("expected an object of header names to string values");
  }
  for (const [header, value] of Object.entries(headers)) {
    if (typeof value !== "string") throw invalid(`headers.${header}: expected a string, got ${typeof value}`);
    try {
      new Headers([[header, value]]);
    } catch {
      throw invalid(`headers.${header}: not a valid HTTP header name or value`);
    }
  }
  return headers as Record<string, string>;
}

/** The config's `url` as a URL; `CONFIG_INVALID` unless it is an absolute http(s) URL. */
function remoteUrl(name: string, config: MCPHttpServerConfig, sourcePath: string | undefined): URL {
  let url: URL | undefined;
  try {
    url = new URL(config.url);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new McpRtError(
      "CONFIG_INVALID",
      `MCP server "${name}" has an invalid "url": ${JSON.stringify(redactUrl(String(config.url)))} is not an http:// or https:// URL (fix "url" ${inConfig(sourcePath)})`,
      { server: name },
    );
  }
  return url;
}
