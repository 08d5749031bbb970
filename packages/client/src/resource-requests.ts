import { McpRtError } from "@mcp-rt/config";
import type { GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/client";
import type { MCPServerConnection } from "./connection.js";
import { getConnectionInternals } from "./server-connection.js";
import { type ServerRequestOptions, sendRequest } from "./server-request.js";

/** What `resources/read` returns: the resource's contents, text or base64 `blob`, each with its URI. */
export type MCPResourceContents = ReadResourceResult;

/** What `prompts/get` returns: the prompt's messages, ready for the conversation. */
export type MCPPromptResult = GetPromptResult;

/** Options of {@link readResource}, {@link subscribeResource} and {@link unsubscribeResource}. */
export interface ResourceRequestOptions extends ServerRequestOptions {
  /** The resource's URI. */
  uri: string;
}

/** Options of {@link getPrompt}. */
export interface GetPromptOptions extends ServerRequestOptions {
  /** The prompt's name, as the server lists it. */
  name: string;
  /** Its arguments, by name. @default {} */
  args?: Record<string, string>;
}

/**
 * Reads one resource (`resources/read`). Rejects with an `McpRtError`
 * (`PROTOCOL_ERROR` with the server's error for an unknown URI,
 * `REQUEST_TIMEOUT`, `TRANSPORT_CLOSED`, `LIMIT_EXCEEDED` for a message past
 * `maxMessageBytes`), or an `AbortError`.
 */
export function readResource(
  connection: MCPServerConnection,
  { uri, ...options }: ResourceRequestOptions,
): Promise<MCPResourceContents> {
  return sendRequest(
    connection,
    `resources/read request for ${JSON.stringify(uri)}`,
    (client, request) =>
      // A plain request, never the SDK's `readResource()`, which may answer from its response cache.
      client.request({ method: "resources/read", params: { uri } }, request),
    { ...options, resourceUri: uri },
  );
}

/**
 * Gets one prompt with its arguments filled in (`prompts/get`). Rejects like
 * {@link readResource}; a missing required argument is the server's
 * `PROTOCOL_ERROR`.
 */
export function getPrompt(
  connection: MCPServerConnection,
  { name, args = {}, ...options }: GetPromptOptions,
): Promise<MCPPromptResult> {
  return sendRequest(
    connection,
    `prompts/get request for "${name}"`,
    (client, request) =>
      client.request({ method: "prompts/get", params: { name, arguments: args } }, request),
    options,
  );
}

/**
 * Asks the server to send `notifications/resources/updated` for `uri`
 * (`resources/subscribe`); `connection.onResourceUpdated` hears them. Needs
 * the server's `resources.subscribe` capability: without it, rejects with
 * `PROTOCOL_ERROR` before anything is sent.
 */
export function subscribeResource(
  connection: MCPServerConnection,
  options: ResourceRequestOptions,
): Promise<void> {
  return subscription(connection, { method: "resources/subscribe", ...options });
}

/** Stops the updates of `uri` (`resources/unsubscribe`); like {@link subscribeResource}. */
export function unsubscribeResource(
  connection: MCPServerConnection,
  options: ResourceRequestOptions,
): Promise<void> {
  return subscription(connection, { method: "resources/unsubscribe", ...options });
}

async function subscription(
  connection: MCPServerConnection,
  {
    method,
    uri,
    ...options
  }: ResourceRequestOptions & { method: "resources/subscribe" | "resources/unsubscribe" },
): Promise<void> {
  checkSubscribe(connection, uri);
  // 2026-07-28 has no resources/subscribe: the uri joins the filter of the connection's listen stream.
  const listen = connection.era === "modern" ? getConnectionInternals(connection).listen() : undefined;
  if (listen) {
    await (method === "resources/subscribe" ? listen.subscribe(uri) : listen.unsubscribe(uri));
    return;
  }
  await sendRequest(
    connection,
    `${method} request for ${JSON.stringify(uri)}`,
    (client, request) => client.request({ method, params: { uri } }, request),
    options,
  );
}

function checkSubscribe(connection: MCPServerConnection, uri: string): void {
  if (connection.capabilities.resources?.subscribe) return;
  throw new McpRtError(
    "PROTOCOL_ERROR",
    `MCP server "${connection.name}" does not offer resource subscriptions (no resources.subscribe capability); cannot follow ${JSON.stringify(uri)}`,
    { server: connection.name },
  );
}
