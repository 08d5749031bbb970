import { isAbsolute, resolve } from "node:path";
import {
  isStdioConfig,
  type MCPHttpServerConfig,
  type MCPServerConfig,
  McpRtError,
  redactUrl,
} from "@mcp-rt/config";
import type { FetchLike, OAuthClientProvider } from "@modelcontextprotocol/client";
import { createServerEnv } from "./child-env.js";
import type { ClientTransport, RemoteClientTransport } from "./client-transport.js";
import { inConfig } from "./error-text.js";
import { createRemoteTransport } from "./remote-transport.js";
import { createStdioTransport } from "./stdio-transport.js";

/** How a server is reached. */
export type TransportKind = "stdio" | "http" | "sse";

/** What every transport may need besides the config. */
export interface TransportContext {
  /** The agent's working folder (absolute). */
  cwd: string;
  /** The environment stdio servers inherit from (before filtering). */
  parentEnv: Record<string, string | undefined>;
  /** Receives stderr text of stdio servers. */
  onStderr?: ((chunk: string) => void) | undefined;
  /** See `ConnectOptions.stdinGraceMs`. */
  stdinGraceMs?: number | undefined;
  /** See `ConnectOptions.killGraceMs`. */
  killGraceMs?: number | undefined;
  /** For a remote config: which transport to build (a config without `type` is tried as `http`, then `sse`). */
  kind?: "http" | "sse" | undefined;
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

/**
 * The transports to try, in order: `["stdio"]`, `["http"]`, `["sse"]`, or for
 * a URL without `type` `["http", "sse"]` (Streamable HTTP, then the legacy
 * SSE transport if the server answers the initialize POST with a 4xx).
 */
export function transportKinds(config: MCPServerConfig): TransportKind[] {
  if (isStdioConfig(config)) return ["stdio"];
  if (config.type === "http" || config.type === "sse") return [config.type];
  return ["http", "sse"];
}

/** The working folder of a stdio server: its config's `cwd` against the agent's, else the agent's. */
export function resolveServerCwd(configCwd: string | undefined, agentCwd: string): string {
  if (!configCwd) return agentCwd;
  return isAbsolute(configCwd) ? configCwd : resolve(agentCwd, configCwd);
}

/** Builds the transport a config asks for. */
export function createTransport(
  name: string,
  config: MCPHttpServerConfig,
  context: TransportContext,
): RemoteClientTransport;
export function createTransport(
  name: string,
  config: MCPServerConfig,
  context: TransportContext,
): ClientTransport;
export function createTransport(
  name: string,
  config: MCPServerConfig,
  context: TransportContext,
): ClientTransport {
  if (isStdioConfig(config)) {
    return createStdioTransport({
      command: config.command,
      args: config.args ?? [],
      env: createServerEnv({
        parent: context.parentEnv,
        env: config.env ?? {},
        passthrough: config.envPassthrough ?? [],
      }),
      cwd: resolveServerCwd(config.cwd, context.cwd),
      ...(context.onStderr ? { onStderr: context.onStderr } : {}),
      ...(context.stdinGraceMs !== undefined ? { stdinGraceMs: context.stdinGraceMs } : {}),
      ...(context.killGraceMs !== undefined ? { killGraceMs: context.killGraceMs } : {}),
      ...(context.maxMessageBytes !== undefined ? { maxMessageBytes: context.maxMessageBytes } : {}),
    });
  }
  return createRemoteTransport({
    kind: context.kind ?? (config.type === "sse" ? "sse" : "http"),
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
